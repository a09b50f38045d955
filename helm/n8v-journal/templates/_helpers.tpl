{{/* Names and labels shared by every template. */}}

{{- define "n8v.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "n8v.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "n8v.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "n8v.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* Selector labels of one component (api, worker, migrate): call with (list $ "api"). */}}
{{- define "n8v.selectorLabels" -}}
{{- $root := index . 0 -}}
app.kubernetes.io/name: {{ include "n8v.name" $root }}
app.kubernetes.io/instance: {{ $root.Release.Name }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end }}

{{- define "n8v.image" -}}
{{ required "image.repository is required: build the image from the repository's Dockerfile, push it to your registry and set image.repository (see values.yaml)" .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end }}

{{- define "n8v.secretName" -}}
{{- .Values.secret.existingSecret | default (include "n8v.fullname" .) }}
{{- end }}

{{- define "n8v.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- .Values.serviceAccount.name | default (include "n8v.fullname" .) }}
{{- else }}
{{- .Values.serviceAccount.name | default "default" }}
{{- end }}
{{- end }}

{{/* Host names MCP accepts: the Ingress hosts, the Service's in-cluster names, and extras. */}}
{{- define "n8v.mcpAllowedHosts" -}}
{{- $hosts := list "localhost" "127.0.0.1" (include "n8v.fullname" .) (printf "%s.%s" (include "n8v.fullname" .) .Release.Namespace) (printf "%s.%s.svc" (include "n8v.fullname" .) .Release.Namespace) (printf "%s.%s.svc.cluster.local" (include "n8v.fullname" .) .Release.Namespace) }}
{{- if .Values.ingress.enabled }}
{{- range .Values.ingress.hosts }}
{{- $hosts = append $hosts .host }}
{{- end }}
{{- end }}
{{- range .Values.mcpAllowedHosts }}
{{- $hosts = append $hosts . }}
{{- end }}
{{- join "," (uniq $hosts) }}
{{- end }}

{{/* Environment shared by every container; call with (list $ "component"). */}}
{{- define "n8v.env" -}}
{{- $root := index . 0 -}}
{{- $component := index . 1 -}}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "n8v.secretName" $root }}
      key: DATABASE_URL
- name: N8V_MIGRATION_DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "n8v.secretName" $root }}
      key: N8V_MIGRATION_DATABASE_URL
- name: N8V_JWT_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ include "n8v.secretName" $root }}
      key: N8V_JWT_SECRET
- name: N8V_FINGERPRINT_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ include "n8v.secretName" $root }}
      key: N8V_FINGERPRINT_SECRET
      optional: true
{{- if eq $root.Values.pooler.mode "transaction" }}
- name: N8V_DATABASE_POOLER
  value: "transaction"
- name: N8V_DIRECT_DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "n8v.secretName" $root }}
      key: N8V_DIRECT_DATABASE_URL
{{- else if $root.Values.pooler.mode }}
{{- fail (printf "pooler.mode is %q; use \"transaction\" or leave it empty" $root.Values.pooler.mode) }}
{{- end }}
- name: N8V_BIND
  value: "0.0.0.0:8080"
- name: N8V_MCP_ALLOWED_HOSTS
  value: {{ include "n8v.mcpAllowedHosts" $root | quote }}
{{- if $root.Values.publicUrl }}
- name: N8V_PUBLIC_URL
  value: {{ $root.Values.publicUrl | quote }}
{{- end }}
{{- range $name, $value := $root.Values.config }}
- name: {{ $name }}
  value: {{ $value | toString | quote }}
{{- end }}
{{- if $root.Values.otel.endpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ $root.Values.otel.endpoint | quote }}
- name: OTEL_EXPORTER_OTLP_PROTOCOL
  value: {{ $root.Values.otel.protocol | quote }}
- name: OTEL_SERVICE_NAME
  value: {{ printf "n8v-journal-%s" $component | quote }}
{{- end }}
{{- with $root.Values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end }}
