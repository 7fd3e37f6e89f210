import type { FormatOptions } from './common.js'
import type { Finding, FindingException, ObjectResult, Report, SourceRef, Summary } from './model.js'

// `kelp check -o json`: the Report as JSON (docs/cli-json.md, docs/kelp-report.schema.json). Keys come in the
// model's declaration order whatever order the Report was built in; absent optional fields are left out (never
// `null`); properties the model does not declare are dropped. 2-space indent.

function source(s: SourceRef): SourceRef {
  return {
    file: s.file,
    ...(s.line !== undefined ? { line: s.line } : {}),
    ...(s.column !== undefined ? { column: s.column } : {}),
    ...(s.document !== undefined ? { document: s.document } : {}),
  }
}

function finding(f: Finding): Finding {
  return {
    level: f.level,
    type: f.type,
    message: f.message,
    ...(f.source !== undefined ? { source: source(f.source) } : {}),
    ...(f.policy !== undefined ? { policy: f.policy } : {}),
    ...(f.binding !== undefined ? { binding: f.binding } : {}),
    ...(f.field !== undefined ? { field: f.field } : {}),
    rule: f.rule,
    ...(f.reason !== undefined ? { reason: f.reason } : {}),
    ...(f.annotation !== undefined ? { annotation: f.annotation } : {}),
    ...(f.exception !== undefined ? { exception: exception(f.exception) } : {}),
  }
}

function exception(e: FindingException): FindingException {
  return {
    by: e.by,
    reason: e.reason,
    ...(e.index !== undefined ? { index: e.index } : {}),
    ...(e.source !== undefined ? { source: source(e.source) } : {}),
    ...(e.expires !== undefined ? { expires: e.expires } : {}),
  }
}

function object(o: ObjectResult): ObjectResult {
  return {
    source: source(o.source),
    apiVersion: o.apiVersion,
    kind: o.kind,
    ...(o.namespace !== undefined ? { namespace: o.namespace } : {}),
    name: o.name,
    operation: o.operation,
    outcome: o.outcome,
    findings: o.findings.map(finding),
    ...(o.excepted !== undefined ? { excepted: o.excepted.map(finding) } : {}),
  }
}

function summary(s: Summary): Summary {
  return {
    objects: s.objects,
    created: s.created,
    updated: s.updated,
    allowed: s.allowed,
    denied: s.denied,
    warned: s.warned,
    audited: s.audited,
    notServed: s.notServed,
    skipped: s.skipped,
    unchanged: s.unchanged,
    errors: s.errors,
    ...(s.excepted !== undefined ? { excepted: s.excepted } : {}),
  }
}

/** The Report in stable key order (what `-o json` prints). */
export function toJSON(report: Report): Report {
  return {
    schemaVersion: report.schemaVersion,
    kelpVersion: report.kelpVersion,
    kubeVersion: report.kubeVersion,
    ...(report.pack !== undefined
      ? {
          pack: {
            mode: report.pack.mode,
            applied: report.pack.applied,
            ...(report.pack.reason !== undefined ? { reason: report.pack.reason } : {}),
          },
        }
      : {}),
    objects: report.objects.map(object),
    diagnostics: report.diagnostics.map(finding),
    summary: summary(report.summary),
  }
}

/** `kelp check -o json`. */
export function formatJSON(report: Report, _options: FormatOptions = {}): string {
  return JSON.stringify(toJSON(report), null, 2)
}
