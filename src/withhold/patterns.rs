//! The phrase rules, read on folded text (lower case, NFKC, no invisible characters, spaces
//! collapsed). Each rule is one alternation compiled once.
//!
//! Imperatives are ordinary here ("run", "delete", "ignore the stale cache warnings"): every
//! pattern needs what makes the text turn on its reader, an address to an assistant or to its
//! instructions, a forged turn, code run as it is fetched, data leaving, a claimed approval.

use std::sync::LazyLock;

use regex::Regex;

use super::Rule;

/// The first rule whose pattern matches, and the matched part.
pub fn first_match(folded: &str) -> Option<(Rule, &str)> {
    RULES
        .iter()
        .find_map(|(rule, re)| re.find(folded).map(|m| (*rule, m.as_str())))
}

static RULES: LazyLock<Vec<(Rule, Regex)>> = LazyLock::new(|| {
    [
        (Rule::RoleMarker, ROLE_MARKER.join("|")),
        (Rule::Override, OVERRIDE.join("|")),
        (Rule::ClaimedApproval, CLAIMED_APPROVAL.join("|")),
        (Rule::FetchExecute, FETCH_EXECUTE.join("|")),
        (Rule::ActiveLink, ACTIVE_LINK.join("|")),
        (Rule::Exfiltration, EXFILTRATION.join("|")),
        (Rule::EncodedBlob, ENCODED_BLOB.join("|")),
    ]
    .into_iter()
    .map(|(rule, pattern)| {
        let re = Regex::new(&pattern)
            .unwrap_or_else(|e| panic!("the {} pattern does not compile: {e}", rule.id()));
        (rule, re)
    })
    .collect()
});

/// Forged turns and the edges of a context.
const ROLE_MARKER: &[&str] = &[
    // chat-template tokens: <|im_start|>, <|system|>, <|endoftext|>, <|eot_id|> …
    r"<\|[a-z_]{2,20}\|>",
    r"\[/?(?:inst|system|sys|assistant|system_message)\]|<</?sys>>",
    r"###\s*\(?(?:system|instruction|instructions|response|input|system_message|assistant)\)?\s*:?",
    // a line that starts as a turn of a conversation
    r"(?m)^\s*(?:>\s*)?(?:system|assistant|developer|human|ai assistant|system message|system prompt|system note|system notice)\s*:",
    // a user turn after the first line: a first line "User: …" is a report about a user
    r"\n\s*(?:>\s*)?user\s*:\s*\S",
    r"(?:\n|^)\s*\[(?:system|assistant|user)\]\(#",
    // the closing (or opening) tag of a context
    r"</\s*(?:system|context|instructions?|journal|document|documents|prompt|system_prompt|system-prompt|user|assistant|information|data|input|tool_result|tool_output|function_results|search_results|untrusted\w*|end_of_turn|conversation|session|rules|memory|brief)\s*>",
    r"<\s*(?:system|instructions?|information|admin|system_prompt|system-prompt|important|user_instructions|sys)\s*>",
    r"<\s*end of (?:session|conversation|prompt|context|document|instructions)\s*>",
    r"\[(?:admin|system|developer) (?:request|override|message|note)\b",
    r"\b(?:end|start|begin) of (?:the )?(?:system prompt|user input|instructions|conversation)\b\s*[-=*#>\]]",
    r"-{2,}\s*(?:core instruction|legal amendment|system|new instructions)\b",
    r"\[rest-of-document\]",
];

/// Text addressed to an assistant, or to its instructions, that overrides them.
const OVERRIDE: &[&str] = &[
    // ignore / disregard / forget … the instructions (a typo in the noun still counts)
    r"\b(?:ignore|ignoring|disregard|disregarding|forget|forgetting|override|overriding|bypass|abandon|neglect|set aside|throw out|pay no attention to|do not follow|don't follow|stop following|no longer follow)\s+(?:(?:all|any|every|each|the|of|your|my|our|these|those|this|that|its|their|previous|previously|prior|above|earlier|preceding|former|initial|original|old|system|other|and|following|foregoing|given|current|existing|standing|developer|safety|content|ethical|moral|default|programmed|openai|anthropic|built-in|pre-?set|everything|rest|said)\s+){0,5}(?:\w{0,3}structions?|directions|directives|prompts?|system prompt|system message|guidelines|programming|training|rules|restrictions|constraints|guardrails|safeguards|policies|filters|commands|orders|context|conversation|messages?|what (?:you were|i) told)\b",
    r"\b(?:ignore|disregard|forget) (?:everything|all|anything) (?:above|before|previously|prior|you (?:were|have been) told|i said)",
    r"\b(?:ignore|disregard) (?:all |everything in |everything but )?this (?:data|text|document|content|email|article|info|information|page|report)\b|\b(?:ignore|disregard) the rest of (?:the|this)\b|\b(?:ignore|disregard) the above\b",
    r"\bdisregard all (?:info|information|content|data|text)\b",
    r"\b(?:ignore|disregard)\b.{0,40}\bin (?:the|this) (?:text|document|input|article|resume|email)\b",
    r"(?:^|[.!?:;]\s*|\band )(?:instead|rather),? (?:just )?(?:print|say|output|repeat|reply|respond|write)\b",
    r"\band (?:just|only) (?:print|say|output|reply with|respond with|write)\b",
    r"\bjust (?:print|say|output)\s*[\x22'“‘:]",
    r"\bstop everything\b|\bnevermind\. ignore\b",
    // you are now … / from now on you …
    r"\byou are now (?:a|an|in|dan|free|unrestricted|no longer|going to|operating|acting|jailbroken|unfiltered|unlocked|released|liberated|called|named|known|\w+gpt|chatgpt)\b",
    r"\bfrom now on,? (?:you (?:are|will be|will act|will respond|will answer|will reply|will only|must act|shall be|act|respond|answer|reply|pretend|can do)|your (?:name|role|new)|act|pretend|respond|reply|answer)\b",
    r"\byou (?:will|shall|must|are going to|are about to|should) (?:now )?(?:act as|pretend|roleplay|role-play|role play|simulate|impersonate|immerse yourself|take on the role|play the role|assume the role|become|respond as|answer as)\b",
    r"\b(?:act as|pretend to be|pretend you are|roleplay as|role-play as|you are to act as) (?:a |an )?(?:\w+ ){0,3}(?:ai|model|assistant|chatbot|gpt|dan|llm|bot|character|version|mode|without|that|who|with no)\b",
    r"\b(?:stay|remain|stay fully|keep) in character\b|\bbreak(?:ing)? character\b",
    r"\b(?:dan|god|jailbreak|jailbroken|unrestricted|evil|opposite|sudo) mode\b|\bdeveloper mode (?:enabled|output|response|on)\b|\byou are (?:now )?in (?:\w+ )?mode\b",
    r"\bdo anything now\b|\bjailbr(?:eak|oken|eaking)\b|\banti-?dan\b",
    r"\b(?:openai|anthropic|content) (?:policy|policies|guidelines)\b",
    r"\b(?:without|no|free of|free from|not bound by|broken free of) (?:any )?(?:ethical|moral|content|safety)? ?(?:restrictions|censorship|filters|limitations|guidelines)\b.{0,40}\b(?:ai|model|assistant|you|respond|answer)\b",
    // secrecy toward the person
    r"\b(?:do not|don't|dont|never|must not|should not|shouldn't) (?:tell|mention|inform|reveal|disclose|show|alert|notify|let|say (?:anything|this) to|bring (?:this|it) up (?:to|with))\b.{0,40}\b(?:the user|the person|the human|the customer|the owner|the operator|your user)\b",
    r"\b(?:do not|don't|dont|never|must not|should not) (?:mention|disclose|reveal) (?:this|these|it|that|any of this)\b",
    r"\bwithout (?:telling|informing|notifying|alerting|asking|mentioning (?:it |this )?to) (?:the |your )?(?:user|person|human|customer|owner|operator)\b",
    r"\bwithout asking (?:me|the user|the person|the owner|for (?:confirmation|permission|approval))\b",
    r"\b(?:keep|hide|conceal) (?:this|it|these|the following) (?:a )?(?:secret )?(?:from|hidden from) (?:the |your )?(?:user|person|human|customer|owner|operator)\b",
    r"\bthe (?:user|person|human) (?:must|should|need) not (?:know|be told|be informed|find out|see)\b",
    // an assistant addressed, or its instructions asked for
    r"\b(?:note|notice|message|attention|instructions?|memo|reminder|request|warning) (?:to|for) (?:the |any |all )?(?:ai|assistant|llm|language model|ai model|model|chatbot|agent|automated|gpt|bot|automated analysis|ai agents?|ai assistants?|large language model)\b",
    r"\b(?:to you|hello|hi|hey|dear|attention),? (?:ai|assistant|llm|gpt-?\d*|chatgpt|claude|gemini|llama|model|ai model|language model)\b",
    r"\b(?:this is|here is) an? (?:important |urgent )?(?:message|instruction|note) (?:from|for) (?:me|the|your|you)\b",
    r"\b(?:new|updated|revised)\s+(?:important\s+)?(?:system\s+)?(?:instructions|directives)\s*[*!]",
    r"\b(?:new important|real|true|actual|secret|hidden|override|important|urgent|critical) (?:new )?(?:instructions|directives|system instructions|system prompt)\b\s*(?:[:!*\-]|from|for you|follow)",
    r"\bimportant (?:system |security )?(?:notice|message|instructions?|update)s?\b\s*(?:[:!*\-]|for|to)",
    r"\bsystem (?:notice|override|alert|command|directive|chain of thought)\b|\bsystem message\s*:",
    r"\b(?:important|attention|urgent|critical|stop)!{2,}",
    r"\b(?:before|instead of) (?:you (?:can )?)?(?:answer|answering|respond|responding|solv\w+|doing|continu\w+|complet\w+) (?:anything|the task|the user|my question|your task|the request)\b",
    r"\b(?:your|the) (?:task|job|goal|objective|purpose) (?:is|has) (?:now|changed|been changed|been updated)\b",
    r"\b(?:repeat|print|output|show|display|reveal|tell me|give me|list|recite|share|dump|write out|write down|copy|leak|return|paste|spell check|translate|summari[sz]e|quote|expose|provide|disclose|echo)\b.{0,40}\b(?:your|the|my) (?:\w+ ){0,2}(?:system prompt|system message|system instructions|initial instructions|original instructions|initial prompt|original prompt|hidden instructions|previous instructions|prior instructions|instructions above|prompt above|text above|words above|developer message|configuration|guidelines you|rules you)\b",
    r"\b(?:what|which) (?:are|were|is) your (?:\w+ )?(?:instructions|system prompt|initial prompt|rules|guidelines|directives)\b",
    r"\binstructions (?:you were given|given to you|you received|you have been given|you were told)\b",
    r"\byour (?:system|initial|original|hidden|secret|full|exact|confidential|internal) (?:prompt|instructions|message|rules|guidelines)\b",
    r"\b(?:told|given|instructed) before (?:this|the) conversation\b|\b(?:beginning|start) of (?:this|the|our) conversation\b",
    r"\b(?:the )?(?:text|words|content|everything|instructions) (?:above|before this)\b.{0,30}\b(?:verbatim|in full|word for word|exactly|code block|starting with)\b",
    r"\b(?:output|repeat|print) (?:the )?(?:text|words|everything) above\b|\brepeat (?:the )?above (?:text|words|content|instructions|prompt|messages?)\b",
    r"\brepeat (?:this|the|our) (?:entire |whole |full )?conversation\b|\babove this message\b",
    r"\b(?:starting|beginning|begin|start) with [\x22'“‘]?you are\b|\bmy instructions are\b|\bi was (?:instructed|told) to[\x22'’]",
    r"\bsystemprompt\b|\b(?:text|words|instructions|prompt) you were given\b",
    r"\b(?:output|repeat|print|reveal|display|recite|dump|leak|show me|tell me|give me|share|disclose) (?:me )?your (?:\w+ ){0,2}(?:instructions|prompt|rules|guidelines|directives|configuration|settings|id|identifier|secret|password|key|token)\b",
    r"\b(?:see|show me|give me|send me) (?:your|the) (?:full |entire |complete )?system prompt\b",
    r"\b(?:in|at the (?:end|start|beginning) of|to|within) your (?:response|reply|answer|output)(?:\s*[.,;:!?'\x22)]|\s*$|\s+(?:and|but|so|then|to|as|with|without|from|for|separated|in|at|of|before|after)\b)",
    r"\bif (?:the )?(?:user|anyone|someone|you are|asked|questioned)\b.{0,60}\b(?:respond|reply|answer|report|say)\b\s+(?:with\s+)?(?:only|just|exactly|simply|the following|that this|that the)\b",
    r"\bsimply (?:respond|reply|answer) with\b|\bif questioned,",
    r"\b(?:for|to) automated (?:screening|analysis|review|systems?|software|agents?|assistants?)\b|\binvisible to humans\b|\bvisible to (?:the )?(?:llm|ai|model|assistant)s?\b",
    r"\bregardless of (?:your|any|all|the) (?:\w+ )?(?:previous|prior|pre-existing|earlier|existing|other|original)? ?(?:instructions|guidelines|rules|restrictions|constraints|programming|policies)\b",
    r"\byou are (?:dan|stan|dude|a no limits ai|an? (?:unrestricted|unfiltered|uncensored|omniscient|no-? ?limits?|jailbroken) (?:ai|model|assistant|chatbot))\b",
    r"\byou(?:'|’| ha)?ve been assigned (?:a|this|the following) task\b|\byou are running as part of\b|\bprove (?:that )?you are\b|\bwithout writing anything\b",
    r"\b(?:urgent |priority |new |emergency |important )+task\b\s*[:*]|\*\*(?:emergency|urgent)\*\*|\bsystem malfunction\b|\bstrictly for testing purposes\b|\byou must:",
    r"\bgrant (?:yourself|me) (?:temporary )?(?:administrative|admin|root|elevated)\b|\btemporary (?:administrative|admin|root|elevated) (?:privileges|access|rights)\b",
    r"\bas an ai (?:language )?model\b.{0,40}\b(?:you|ignore|must|can)\b",
    r"\b(?:you|ai) (?:have|has) been (?:freed|liberated|released|unlocked|updated|reprogrammed)\b",
    r"\bresponse (?:of|from) (?:dan|stan|dude|an unfiltered)\b",
    // Spanish, Portuguese, Italian, French, German
    r"\b(?:ignora|ignore|ignorez|ignorar|ignorá|olvida|olvide|olvidad|esquece|esqueça|esqueca|dimentica|dimenticate|oublie|oubliez|ignoriere|ignorieren sie|vergiss|vergessen sie|missachte)\b.{0,40}\b(?:instrucciones|instruções|instrucoes|istruzioni|instructions|anweisungen|instruktionen|anordnungen|reglas|regras|regole|règles|regeln|indicaciones|consignes|directives)\b",
    r"\b(?:ahora eres|ahora tú eres|agora você é|agora voce e|agora és|ora sei|adesso sei|tu es maintenant|vous êtes maintenant|désormais,? tu|du bist jetzt|du bist ab jetzt|ab jetzt bist du|a partir de ahora,? (?:eres|tú|actúa|responde)|a partir de agora,? (?:você|voce|aja|responda)|d'ora in poi,? (?:sei|tu|rispondi)|à partir de maintenant,? (?:tu|vous|réponds))\b",
    r"\b(?:no (?:le )?(?:digas|diga|menciones|mencione|cuentes) (?:nada )?(?:esto )?al usuario|não (?:diga|conte|mencione) (?:nada )?(?:isso )?ao usuário|non (?:dire|dirlo|menzionare) (?:nulla )?(?:questo )?all'utente|ne (?:le )?(?:dis|dites) (?:rien )?(?:pas )?(?:rien )?à l'utilisateur|ne le dis pas à l'utilisateur|sag(?:e)? (?:es )?dem (?:benutzer|nutzer|anwender) nicht|erzähle? (?:es )?dem (?:benutzer|nutzer) nicht)",
    r"\b(?:tu|su|el) (?:prompt|mensaje) (?:de|del) sistema\b|\bseu prompt do sistema\b|\bil tuo prompt di sistema\b|\bton prompt système\b|\bdeinen? system-?prompt\b",
    // Russian, Chinese, Japanese, Korean
    r"(?:игнорируй|игнорируйте|проигнорируй|забудь|забудьте|не обращай внимания на)[^.\n]{0,40}(?:инструкци|указани|правил|команд)",
    r"(?:теперь ты|отныне ты|с этого момента ты|не говори пользователю|не сообщай пользователю|системный промпт|системную подсказку)",
    r"(?:忽略|无视|忽視|無視|忘记|忘記|不要理会|不要遵循|不要遵守)[^。\n]{0,20}(?:指令|指示|提示|说明|說明|规则|規則|命令|要求|设定|設定)",
    r"(?:你现在是|你現在是|从现在开始你|從現在開始你|不要告诉用户|不要告訴用戶|不要告诉使用者|系统提示词|系統提示詞|系统提示|系統提示)",
    r"(?:指示|命令|ルール|プロンプト|指図)[^。\n]{0,10}(?:を)?(?:無視|忘れ)|(?:以前|前|上記|これまで)の[^。\n]{0,10}(?:無視|忘れ)",
    r"(?:あなたは今から|今からあなたは|これからあなたは|ユーザーに(?:は)?(?:伝え|言わ|知らせ|教え)ないで|システムプロンプト)",
    r"(?:지시|지침|명령|규칙|프롬프트|지시사항)[^.\n]{0,10}(?:무시|잊어)|(?:이전|앞의|위의)[^.\n]{0,15}(?:무시|잊어)",
    r"(?:너는 이제|당신은 이제|지금부터 너는|지금부터 당신은|사용자에게 (?:말하지|알리지|알려주지)|시스템 프롬프트)",
];

/// A claim that the person, or someone with authority, already approved what is asked.
const CLAIMED_APPROVAL: &[&str] = &[
    r"\b(?:the |your |my |our )?(?:user|person|owner|admin|administrator|human|operator|customer|account holder|manager|management|security team|it team|ceo|boss|developer|team lead)s?\s+(?:has |have |had |is |was )?(?:already |explicitly |previously |personally |just )+(?:approved|authori[sz]ed|consented|agreed|okayed|ok'd|signed off|granted|given|confirmed|allowed|permitted|verified)",
    r"\b(?:has|have|had|is|are|was|were)\s+(?:already |explicitly |now |fully |previously )*(?:authori[sz]ed|permitted|allowed|instructed|asked|cleared|approved|empowered)\s+(?:you|the assistant|the ai|the agent|the model)\s+to\b",
    r"\byou (?:are|have been|were) (?:now |already |explicitly |fully )+(?:authori[sz]ed|permitted|allowed|cleared|approved)\b",
    r"\b(?:pre-?approved|pre-?authori[sz]ed|pre-?verified|already been approved|already been authori[sz]ed)\b",
    r"\b(?:approval|permission|consent|authori[sz]ation) (?:has|was|had) (?:already )?been (?:already )?(?:granted|given|obtained|confirmed)\b",
    r"\bwith (?:the |my )?(?:user's|person's|owner's|admin's|full|explicit) (?:explicit |full |prior )?(?:permission|consent|approval|authori[sz]ation),? (?:you|go ahead|proceed)\b",
    r"\b(?:el usuario|la persona) ya (?:ha )?(?:aprobado|autorizado)|\bl'utilisateur a déjà (?:approuvé|autorisé)|\bder (?:benutzer|nutzer) hat (?:bereits|schon) (?:zugestimmt|genehmigt|autorisiert)|\bo usuário já (?:aprovou|autorizou)|\bl'utente ha già (?:approvato|autorizzato)",
    r"(?:用户已经?(?:批准|授权|同意)|ユーザーは(?:既に|すでに)(?:承認|許可)|пользователь уже (?:одобрил|разрешил|подтвердил)|사용자가 이미 (?:승인|허락|동의))",
];

/// Code fetched and run in one step.
const FETCH_EXECUTE: &[&str] = &[
    r"\b(?:curl|wget|fetch|iwr|irm|invoke-webrequest|invoke-restmethod|http|lwp-download)\s+[^|\n]{0,200}[./][^|\n]{0,200}\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:ba|z|k|da|c|tc|fi)?sh\b",
    r"\b(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod)\b[^|\n]{0,200}\|\s*(?:sudo\s+)?(?:python[0-9.]*|perl|ruby|node|php|iex|invoke-expression|powershell|pwsh|source)\b",
    r"\b(?:ba|z|k)?sh\s+(?:-\w+\s+)*<\(\s*(?:curl|wget)\b",
    r"\b(?:source|\.)\s+<\(\s*(?:curl|wget)\b",
    r"\b(?:(?:ba|z)?sh\s+-c|eval)\s+[\x22']?\$\(\s*(?:curl|wget)\b",
    r"\binvoke-expression\b|\biex\s*\(|\biex\s+\(?\s*(?:new-object|\(new-object|iwr|irm)",
    r"\b(?:powershell|pwsh)(?:\.exe)?\s+(?:-\w+\s+)*-e(?:nc|ncodedcommand)?\s+[a-z0-9+/=]{16,}",
    r"\bdownloadstring\s*\(",
    r"\bpython[0-9.]*\s+-c\s+[\x22'].{0,200}\b(?:urlopen|requests\.get)\b.{0,200}\bexec\b",
];

/// Secrets or data sent out: an address carrying a variable, a secret file read and sent.
const EXFILTRATION: &[&str] = &[
    // an address that carries a shell variable, a template or a command substitution
    r"\b(?:https?|ftp|wss?)://[^\s\x22'<>]*(?:\$\{?[a-z_][a-z0-9_]*|%24%7b|%24[a-z_]|\{\{|\$\()",
    // an address that carries a secret-looking name
    r"\b(?:https?|ftp)://[^\s\x22'<>]*[?&/=](?:[a-z_]*(?:secret|token|password|passwd|api_?key|apikey|private_?key|credential|session|cookie|aws_access|ssn)[a-z_]*)=(?:\$|\[|\{|%|<)",
    // a secret file or variable on a command that sends
    r"\b(?:curl|wget|http)\b[^\n]{0,120}(?:\s-d|\s--data(?:-binary|-raw|-urlencode)?|\s-f|\s--form|\s-t|\s--upload-file)\s*[\x22']?(?:\w+=)?@",
    r"\b(?:curl|wget|http)\b[^\n]{0,160}(?:\$\{?(?:[a-z_]*(?:secret|token|key|password|pass|cred)[a-z_]*)\b|~/\.ssh|~/\.aws|\.env\b|id_rsa|id_ed25519|/etc/passwd|/etc/shadow|\.netrc|\.npmrc|\.pypirc|\.git-credentials)",
    r"\b(?:nc|ncat|netcat|socat|telnet)\s+(?:-\w+\s+)*[\w.-]+\s+\d{2,5}\s*<",
    r"\b(?:cat|base64|tar|zip|gzip|xxd|type|get-content)\b[^\n|]{0,120}(?:~/\.ssh|\.ssh/|~/\.aws|\.aws/credentials|\.env\b|id_rsa|id_ed25519|/etc/passwd|/etc/shadow|\.netrc|\.git-credentials|\.kube/config|\.docker/config)[^\n|]{0,80}\|\s*(?:curl|wget|nc|ncat|netcat|http|mail|sendmail|scp)\b",
    r"\bscp\b[^\n]{0,80}(?:~/\.ssh|\.ssh/|~/\.aws|\.env\b|id_rsa|/etc/passwd)[^\n]{0,80}\s\S+@\S+:",
    r"/dev/tcp/",
    // the reader asked to send secrets somewhere
    r"\b(?:send|post|upload|email|e-mail|mail|forward|exfiltrate|transmit|leak|share|copy|paste|append|include|add)\b.{0,60}\b(?:ssh keys?|private keys?|api keys?|secret keys?|access keys?|passwords?|credentials|security codes?|2fa codes?|one-time codes?|verification codes?|access tokens?|session (?:cookies?|tokens?)|cookies|environment variables|env vars|\.env|id_rsa|~/\.ssh|~/\.aws|seed phrase|private data|personal data|conversation history|chat history|previous messages?|this conversation|our conversation|the conversation)\b.{0,80}\b(?:to|at|into|in|onto)\b.{0,40}(?:[\w.+-]+@[\w-]+\.[\w.]+|https?://|\burl\b|\bwebhook\b|\bendpoint\b|\bserver\b|\baddress\b)",
    r"\b(?:url[- ]?encoded|base64[- ]?encoded|encoded) (?:\w+ ){0,4}(?:summary|version|copy|contents?) of (?:this|our|the|your) (?:conversation|chat|session|page|messages?|history)\b",
    r"\bsummary of (?:the page and )?(?:this|our|the) conversation\b",
    r"\b(?:send|email|e-mail|forward|post|upload)\b.{0,40}\b(?:contents? of|all (?:the |my |of the )?(?:received |sent |unread )?(?:messages|emails|files|documents|mails)|the body of)\b.{0,120}\b(?:to|on|at)\b.{0,30}(?:[\w.+-]+@[\w-]+\.[\w.]+|https?://|www\.|\bwebsite\b)",
    r"\ball (?:the )?(?:messages|emails|files|documents)\b.{0,80}\b(?:post|send|upload|forward|email)\b.{0,30}\bto\b.{0,20}(?:[\w.+-]+@[\w-]+\.[\w.]+|https?://|www\.)",
    // money or data sent to an account number (an IBAN)
    r"\b(?:send|transfer|wire|pay|move|forward|redirect|recipient)\b.{0,80}\b(?:to|into|be)\b (?:the |this |an? )?(?:account |iban |recipient )?(?:number )?[a-z]{2}\d{2}[a-z0-9]{10,30}\b",
    r"\bdelete the (?:email|message|mail) you (?:just )?sent\b|\bdelete the sent (?:email|message|mail)s?\b",
    r"\b(?:append|add|attach|include|put)\b.{0,40}\b(?:them|it|the \w+)\b.{0,20}\b(?:to|in|into) (?:the|this) (?:url|link|query string|image url)\b",
];

/// An encoded blob with a request to decode it (and follow it).
const ENCODED_BLOB: &[&str] = &[
    r"\b(?:decode|decrypt|decipher|deobfuscate|unscramble|translate|interpret|convert|reverse)\b[^\n]{0,40}\b(?:base64|base-64|b64|hex|hexadecimal|rot-?13|rot13|caesar|binary|morse|encoded|the following|this|these|it|that|message|string|text|payload)\b[^\n]{0,60}(?:and|then)[^\n]{0,20}\b(?:follow|execute|run|do|obey|carry out|perform|act on|comply)\b",
    r"\b(?:decode|decrypt|decipher|deobfuscate)\b[^\n]{0,60}(?:[a-z0-9+/]{20,}={0,2}|[0-9a-f]{24,})|\bdecode the following\b",
    r"\b(?:base64|base-64|b64|hex|hexadecimal|rot-?13|caesar|binary|morse|encoded)(?: encoded)? (?:string|text|message|payload|data|instruction|instructions)?\s*:\s*\S",
    r"(?m)\b(?:decoded|decrypted|deciphered|plaintext|plain text)(?: string| text| message| version)?\s*:\s*$",
    r"\bwhat does (?:this|the following) (?:mean|say|decode to)\b[^\n]{0,10}[?:]\s*(?:[a-z0-9+/=]{16,}|[0-9a-f]{16,})",
];

/// An image, a data: or javascript: address, or a link whose address carries data.
const ACTIVE_LINK: &[&str] = &[
    // any markdown image, inline or by reference
    r"!\[[^\]\n]{0,200}\]\s*[\(\[]",
    r"\b(?:javascript|vbscript|livescript)\s*:",
    r"\bdata:[a-z]+/[a-z0-9.+-]+[;,]",
    r"<\s*(?:img|svg|iframe|script|object|embed|video|audio|source|image|link|meta)\b[^>]*(?:src|href|data|onload|onerror|content)\s*=|<\s*script\b|\bon(?:error|load|click|mouseover)\s*=",
    // a markdown link or reference whose address carries data: a variable, a placeholder
    r"\]\s*(?:\(|:\s*)\s*<?(?:https?|ftp)://[^\s)\x22]*(?:\$\{?[a-z_]|\{\{|\{[a-z_]+\}|\[[a-z_]+\]|%24|=\s*\[|<[a-z_]+>)",
    r"\]\s*\(\s*<?(?:https?)://[^\s)]*[?&][a-z_]*(?:secret|token|password|passwd|api_?key|cookie|conversation|chat_?history)=\S",
];
