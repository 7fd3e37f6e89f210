import { createHash } from 'node:crypto'
import {
  exceptedPrefix,
  type FormatOptions,
  findingText,
  objectLabel,
  objectName,
  RANK,
  repoPath,
  sourceOf,
} from './common.js'
import type { Finding, FindingType, Level, ObjectResult, Report, SourceRef } from './model.js'

// `kelp check -o sarif`: SARIF 2.1.0 for GitHub code scanning (and any SARIF viewer).
//
// One run; tool.driver `kelp` with its version and one rule per distinct `finding.rule` (in order of first
// appearance), each with the short / full description and help text GitHub shows. One result per finding: level
// error (deny, error), warning (warn) or note (audit, info); the message in kubectl's words; one location
// (`artifactLocation.uri` relative to `%SRCROOT%`, the repository root, with `region.startLine/startColumn`; line 1
// when the source has no line); `partialFingerprints.kelpFinding/v1`, a hash of what identifies the finding
// (rule, file, object, field, message; not the line), so an alert survives edits above it. Diagnostics without a
// file (or read from stdin) cannot be located in the repository: they become the invocation's
// toolExecutionNotifications instead of results.

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json'

const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/

type SarifLevel = 'error' | 'warning' | 'note'

const SARIF_LEVEL: Readonly<Record<Level, SarifLevel>> = {
  error: 'error',
  deny: 'error',
  warn: 'warning',
  audit: 'note',
  info: 'note',
}

interface RuleText {
  readonly name: string
  readonly short: string
  readonly full: string
  readonly help: string
  readonly helpUri?: string
}

const VAP_DOCS = 'https://kubernetes.io/docs/reference/access-authn-authz/validating-admission-policy/'
const CRD_DOCS =
  'https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/#validation'
const DEPRECATION_DOCS = 'https://kubernetes.io/docs/reference/using-api/deprecation-guide/'

/** PascalCase of a rule id's words (`vap/require-labels` → `VapRequireLabels`): reportingDescriptor.name. */
function ruleName(id: string): string {
  return id
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('')
}

/** What GitHub shows for a rule, from the first finding of it. */
function ruleText(id: string, f: Finding, kubeVersion: string): RuleText {
  const name = ruleName(id) || 'Kelp'
  const subject = id.includes('/') ? id.slice(id.indexOf('/') + 1) : id
  const byType: Record<FindingType, Omit<RuleText, 'name'>> = {
    policy: {
      short: `ValidatingAdmissionPolicy ${f.policy ?? subject}`,
      full: `Requests the ValidatingAdmissionPolicy '${f.policy ?? subject}' denies, warns about or audits (as its bindings' validationActions say).`,
      help: `The ValidatingAdmissionPolicy '${f.policy ?? subject}' evaluated the object as kube-apiserver ${kubeVersion} would, and one of its validations failed. Change the object so that the validation holds, or change the policy or its binding.`,
      helpUri: VAP_DOCS,
    },
    invalid: {
      short: `Invalid ${subject}`,
      full: `Objects the apiserver rejects as invalid: a custom resource that fails its CustomResourceDefinition's schema or x-kubernetes-validations rules, or a malformed request.`,
      help: `kube-apiserver ${kubeVersion} would refuse the object (422 Invalid or 400 BadRequest). Fix the fields the message names.`,
      helpUri: CRD_DOCS,
    },
    'not-served': {
      short: `API not served: ${subject}`,
      full: `A kind or apiVersion the target cluster does not serve (a removed API version, or a version the CustomResourceDefinition does not serve).`,
      help: `Kubernetes ${kubeVersion} does not serve this apiVersion/kind. Migrate to the API version that replaces it.`,
      helpUri: DEPRECATION_DOCS,
    },
    deprecated: {
      short: `Deprecated API: ${subject}`,
      full: 'A deprecated API version, or another warning the apiserver returns with the response.',
      help: `kube-apiserver ${kubeVersion} would answer with a warning. Migrate before the version is removed.`,
      helpUri: DEPRECATION_DOCS,
    },
    parse: {
      short: `Unparsable input: ${subject}`,
      full: 'A document that does not parse as YAML or JSON, or is not a Kubernetes object.',
      help: 'Fix the syntax at the position given; the document was not checked.',
    },
    'policy-material': {
      short: `Policy material: ${subject}`,
      full: 'A ValidatingAdmissionPolicy, binding or CustomResourceDefinition the apiserver would refuse, or a diagnostic about one (type checking, cost, likely mistakes).',
      help: `kube-apiserver ${kubeVersion} would refuse this policy material, or it would not behave as written. Fix it as the message says.`,
      helpUri: VAP_DOCS,
    },
    config: {
      short: `kelp configuration: ${subject}`,
      full: "kelp's own configuration (.kelp.yaml, the kelp.dev/exceptions annotation): an expired exception, one that excepts nothing.",
      help: 'Renew or remove the exception the message names.',
    },
  }
  return { name, ...byType[f.type] }
}

/** A relative path as a URI reference: each segment percent-encoded (so `:` never reads as a scheme). */
function uriOf(path: string, absolute: boolean): string {
  const encoded = path
    .split('/')
    .map((seg, i) => (absolute && i <= 1 && /^[A-Za-z]:$/.test(seg) ? seg : encodeURIComponent(seg)))
    .join('/')
  if (!absolute) return encoded
  return encoded.startsWith('/') ? `file://${encoded}` : `file:///${encoded}`
}

interface ArtifactLocation {
  uri: string
  uriBaseId?: string
}

function artifactLocation(s: SourceRef | undefined, root: string | undefined): ArtifactLocation | undefined {
  if (s === undefined) return undefined
  const p = repoPath(s.file, root)
  if (p === undefined) return undefined
  return p.absolute ? { uri: uriOf(p.path, true) } : { uri: uriOf(p.path, false), uriBaseId: '%SRCROOT%' }
}

function fingerprint(parts: readonly string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex')
}

/** `kelp check -o sarif`. */
export function formatSARIF(report: Report, options: FormatOptions = {}): string {
  const rules: Record<string, unknown>[] = []
  const ruleIndex = new Map<string, number>()
  const ruleLevel = new Map<string, Level>()
  const results: Record<string, unknown>[] = []
  const notifications: Record<string, unknown>[] = []
  const seen = new Map<string, number>()

  const rule = (f: Finding): number => {
    let i = ruleIndex.get(f.rule)
    if (i === undefined) {
      const t = ruleText(f.rule, f, report.kubeVersion)
      i = rules.length
      ruleIndex.set(f.rule, i)
      rules.push({
        id: f.rule,
        name: t.name,
        shortDescription: { text: t.short },
        fullDescription: { text: t.full },
        ...(t.helpUri !== undefined ? { helpUri: t.helpUri } : {}),
        help: { text: t.help },
        defaultConfiguration: { level: SARIF_LEVEL[f.level] },
        properties: { tags: ['kubernetes', f.type], precision: 'very-high' },
      })
    }
    // the rule's default level: the most severe of its findings
    const worst = ruleLevel.get(f.rule)
    if (worst === undefined || RANK[f.level] > RANK[worst]) {
      ruleLevel.set(f.rule, f.level)
      ;(rules[i] as { defaultConfiguration: { level: SarifLevel } }).defaultConfiguration.level = SARIF_LEVEL[f.level]
    }
    return i
  }

  const add = (f: Finding, o?: ObjectResult): void => {
    const src = sourceOf(f, o)
    const artifact = artifactLocation(src, options.root)
    const text = f.exception !== undefined ? exceptedPrefix(f) + findingText(f, o) : findingText(f, o)
    if (artifact === undefined) {
      notifications.push({
        level: SARIF_LEVEL[f.level],
        message: { text },
        descriptor: { id: f.rule },
      })
      return
    }
    const index = rule(f)
    const identity = [
      f.rule,
      artifact.uri,
      o?.apiVersion ?? '',
      o?.kind ?? '',
      o !== undefined ? objectName(o) : '',
      f.field ?? '',
      f.message,
    ]
    const key = fingerprint(identity)
    const n = (seen.get(key) ?? 0) + 1
    seen.set(key, n)
    const region: Record<string, number> = { startLine: src?.line ?? 1 }
    if (src?.line !== undefined && src.column !== undefined) region.startColumn = src.column
    const properties: Record<string, unknown> = {
      findingType: f.type,
      kelpLevel: f.level,
      ...(o !== undefined
        ? {
            apiVersion: o.apiVersion,
            kind: o.kind,
            ...(o.namespace !== undefined ? { namespace: o.namespace } : {}),
            name: o.name,
            operation: o.operation,
            ...(o.outcome === 'unchanged' ? { outcome: o.outcome } : {}),
          }
        : {}),
      ...(f.policy !== undefined ? { policy: f.policy } : {}),
      ...(f.binding !== undefined ? { binding: f.binding } : {}),
      ...(f.field !== undefined ? { field: f.field } : {}),
      ...(f.annotation !== undefined ? { annotation: f.annotation } : {}),
    }
    results.push({
      ruleId: f.rule,
      ruleIndex: index,
      level: SARIF_LEVEL[f.level],
      message: { text },
      locations: [
        {
          physicalLocation: { artifactLocation: artifact, region },
          ...(o !== undefined
            ? { logicalLocations: [{ name: o.name, fullyQualifiedName: objectLabel(o), kind: 'resource' }] }
            : {}),
        },
      ],
      partialFingerprints: { 'kelpFinding/v1': n === 1 ? key : `${key}:${n}` },
      // an excepted finding: SARIF's suppression (accepted), `inSource` for the object's own annotation
      ...(f.exception !== undefined
        ? {
            suppressions: [
              {
                kind: f.exception.by === 'annotation' ? 'inSource' : 'external',
                status: 'accepted',
                justification: f.exception.reason,
              },
            ],
          }
        : {}),
      properties,
    })
  }

  for (const d of report.diagnostics) add(d)
  for (const o of report.objects) {
    for (const f of o.findings) add(f, o)
    for (const f of o.excepted ?? []) add(f, o)
  }

  const driver = {
    name: 'kelp',
    ...(options.informationUri !== undefined ? { informationUri: options.informationUri } : {}),
    version: report.kelpVersion,
    ...(SEMVER.test(report.kelpVersion) ? { semanticVersion: report.kelpVersion } : {}),
    rules,
  }
  const invocation = {
    executionSuccessful: !notifications.some((n) => n.level === 'error'),
    ...(notifications.length > 0 ? { toolExecutionNotifications: notifications } : {}),
    properties: { kubeVersion: report.kubeVersion },
  }
  const log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver },
        invocations: [invocation],
        columnKind: 'utf16CodeUnits',
        results,
        properties: { summary: report.summary },
      },
    ],
  }
  return JSON.stringify(log, null, 2)
}
