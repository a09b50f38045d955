-- POST /api/v1/records/{id}/entries with X-Purpose. TOKENS (space-separated) are used round
-- robin, one per request: one token = every request in one implicit session; many tokens =
-- as many sessions.
local tokens = {}
for t in string.gmatch(os.getenv("TOKENS") or "", "%S+") do tokens[#tokens + 1] = t end
local record = os.getenv("RECORD")
local n = 0
-- DELAY_MS paces each connection (scenario 4 runs at half the peak rate).
local pause = tonumber(os.getenv("DELAY_MS") or "0")
if pause > 0 then
  delay = function() return pause end
end
wrk.method = "POST"
wrk.body = '{"line": "checked the build"}'
request = function()
  n = n + 1
  local headers = {
    ["Authorization"] = "Bearer " .. tokens[(n % #tokens) + 1],
    ["Content-Type"] = "application/json",
    ["X-Purpose"] = "Put the result on record",
  }
  return wrk.format(nil, "/api/v1/records/" .. record .. "/entries", headers)
end
