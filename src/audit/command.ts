import type { Command } from 'commander'
import { exitCode, type FailOn, format, type OutputFormat, FORMATS as REPORT_FORMATS } from '../report/index.js'
import { formatPolicyReport } from '../report/policy-report.js'
import { collect, type Io, kubeVersionOf, UsageError } from '../report/usage.js'
import { type ClusterOptions, connect } from './cluster.js'
import { audit } from './run.js'
import { writeReports } from './write-reports.js'

// `kelp audit`: the audit face's command line (src/bin/program.ts puts it beside the others). The release is the
// cluster's own (GET /version) unless --kube-version says otherwise.

const FORMATS = [...REPORT_FORMATS, 'policyreport'] as const
const FAIL_ON = ['deny', 'warn', 'audit', 'none'] as const

export function addAuditCommand(program: Command, io: Io, setCode: (c: number) => void): void {
  program
    .command('audit')
    .description(
      'what policies would do to the objects a live cluster already holds: each stored object a policy matches, ' +
        'admitted as a create of it would be now (Deny, Warn, Audit, mutations); read-only',
    )
    .option(
      '-p, --policies <path>',
      'candidate policy material: VAPs, MAPs, bindings, params (files or directories, repeatable)',
      collect,
      [],
    )
    .option('--cluster-policies', 'also the ValidatingAdmissionPolicies and bindings installed in the cluster')
    .option('--kubeconfig <file>', 'the kubeconfig (default: $KUBECONFIG, ~/.kube/config, or in-cluster)')
    .option('--context <name>', 'the kubeconfig context (default: its current context)')
    .option('-n, --namespace <ns>', "one namespace's objects (and the cluster-scoped ones); default every namespace")
    .option('--kube-version <version>', "the Kubernetes release to behave as (default: the cluster's)")
    .option('-o, --output <format>', `output format: ${FORMATS.join(', ')}`, 'text')
    .option('--fail-on <level>', `exit 1 at findings of this level or worse: ${FAIL_ON.join(', ')}`, 'deny')
    .option(
      '--write-reports',
      'write the PolicyReports to the cluster (one per namespace, a ClusterPolicyReport; earlier runs replaced)',
    )
    .option('--report-name <name>', "the PolicyReports' name (one per shard of a cluster audited in parts)", 'kelp')
    .option('--qps <n>', 'requests per second to the apiserver (client-go default)', '5')
    .option('--burst <n>', 'requests allowed at once above --qps (client-go default)', '10')
    .action(
      async (opts: {
        policies: string[]
        clusterPolicies?: boolean
        kubeconfig?: string
        context?: string
        namespace?: string
        kubeVersion?: string
        output: string
        failOn: string
        qps: string
        burst: string
        writeReports?: boolean
        reportName: string
      }) => {
        if (!(FORMATS as readonly string[]).includes(opts.output))
          throw new UsageError(`--output: one of ${FORMATS.join(', ')}`)
        if (!(FAIL_ON as readonly string[]).includes(opts.failOn))
          throw new UsageError(`--fail-on: one of ${FAIL_ON.join(', ')}`)
        if (opts.policies.length === 0 && opts.clusterPolicies !== true)
          throw new UsageError('nothing to audit with: give policies (-p) or --cluster-policies')
        const qps = Number(opts.qps)
        const burst = Number(opts.burst)
        if (!(qps > 0) || !(Number.isInteger(burst) && burst > 0))
          throw new UsageError('--qps and --burst: positive numbers')
        const clusterOptions: ClusterOptions = {
          qps,
          burst,
          ...(opts.kubeconfig !== undefined ? { kubeconfig: opts.kubeconfig } : {}),
          ...(opts.context !== undefined ? { context: opts.context } : {}),
        }
        let cluster: Awaited<ReturnType<typeof connect>>
        try {
          cluster = await connect(clusterOptions)
        } catch (e) {
          throw new UsageError(`kubeconfig: ${e instanceof Error ? e.message : String(e)}`)
        }
        // the first request says whether the cluster can be reached and who we are to it (401: no one)
        let v: Awaited<ReturnType<typeof cluster.get>>
        try {
          v = await cluster.get('/version')
        } catch (e) {
          const why = e instanceof Error ? e.message : String(e)
          throw new UsageError(`the cluster at ${cluster.server} (context ${cluster.context}): ${why}`)
        }
        const version = opts.kubeVersion ?? `${String(v.major ?? '')}.${String(v.minor ?? '').replace(/\D+$/, '')}`
        const { target, env } = kubeVersionOf(version)
        const tty = process.stderr.isTTY === true
        const report = await audit(cluster, {
          policies: opts.policies,
          clusterPolicies: opts.clusterPolicies === true,
          ...(opts.namespace !== undefined ? { namespace: opts.namespace } : {}),
          kubeVersion: env,
          target,
          keep: (opts.output === 'text' || opts.output === 'github') && opts.writeReports !== true ? 'findings' : 'all',
          ...(tty ? { onProgress: (n: number, r: string) => process.stderr.write(`\r\x1b[K${n} objects (${r})`) } : {}),
        })
        if (tty) process.stderr.write('\r\x1b[K')
        const failOn = opts.failOn as FailOn
        io.out(
          opts.output === 'policyreport'
            ? formatPolicyReport(report, { name: opts.reportName })
            : format(report, opts.output as OutputFormat, { color: io.color === true, failOn }).replace(/\n$/, ''),
        )
        if (opts.writeReports === true) {
          const w = await writeReports(cluster, report, {
            name: opts.reportName,
            ...(opts.namespace !== undefined ? { namespace: opts.namespace } : {}),
          })
          io.err(`PolicyReports: ${w.created} created, ${w.replaced} replaced, ${w.deleted} deleted`)
        }
        setCode(exitCode(report, failOn))
      },
    )
}
