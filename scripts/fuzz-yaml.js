// A long run of the fast YAML reader against js-yaml (docs/yaml.md "The fast reader"), beyond what the
// test suite's fast-check runs: the project's YAML documents in the reader's subset and a few seeds of
// its constructs, edited at random (characters inserted and deleted, lines duplicated, indented and
// dedented). Wherever the fast reader answers, js-yaml with GOYAML_V2_SCHEMA must read the text to
// the same value. Needs a build (npm run build).
//   node scripts/fuzz-yaml.js [iterations=1000000] [seed=1]
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isDeepStrictEqual } from 'node:util'
import jsyaml from 'js-yaml'
import { GOYAML_V2_SCHEMA } from '../dist/kube/yaml/resolve.js'
import { NOT_SIMPLE, readSimpleYAML } from '../dist/kube/yaml/simple.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const N = Number(process.argv[2] ?? 1_000_000)
let seed = Number(process.argv[3] ?? 1)
const files = []
const walk = (d) => {
  for (const f of readdirSync(d)) {
    const p = join(d, f)
    if (f === 'node_modules' || f.startsWith('.')) continue
    if (statSync(p).isDirectory()) walk(p)
    else if (/\.ya?ml$/.test(f)) files.push(p)
  }
}
for (const d of ['examples', 'policies', 'test']) walk(join(root, d))
const seeds = files
  .flatMap((f) => readFileSync(f, 'utf8').split(/^---[^\n]*\n/m))
  .filter((d) => d.trim() !== '' && readSimpleYAML(d) !== NOT_SIMPLE)
seeds.push(
  'data:\n  a.conf: |\n    x = 1\n    # c\n\n    y: 2\n  b: |-\n    z\n\n\n  c: [a, "b", \'c\', 1, yes]\nk: {}\nl: []\n',
  '- |\n  a\n   b\n\n- [x, y]\n- {}\n- key: |-\n    v\n  k2: [ 1 , 2 ]\n',
  "a:\n  -\n  -\n    b: 1\nc: ~\nd:\ne: \"yes\"\nf: 'it''s' # c\n",
)
const random = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff
  return seed / 0x7fffffff
}
const pick = (n) => Math.floor(random() * n)
const chars = ' -:#\'"\na0.&*!|>[]{}?,~y1_+2\\%@`<\t'.split('')
let answered = 0
let differ = 0
for (let it = 0; it < N; it++) {
  let s = seeds[pick(seeds.length)]
  for (let k = 1 + pick(4); k > 0; k--) {
    const op = pick(6)
    const i = pick(s.length + 1)
    if (op <= 1) s = s.slice(0, i) + chars[pick(chars.length)] + s.slice(i)
    else if (op === 2) s = s.slice(0, i) + s.slice(i + 1)
    else {
      const lines = s.split('\n')
      const l = pick(lines.length)
      if (op === 3) lines.splice(l, 0, lines[l])
      else if (op === 4) lines[l] = ` ${lines[l]}`
      else lines[l] = lines[l].replace(/^ {1,2}/, '')
      s = lines.join('\n')
    }
  }
  const fast = readSimpleYAML(s)
  if (fast === NOT_SIMPLE) continue
  answered++
  let ref
  try {
    ref = jsyaml.load(s, { schema: GOYAML_V2_SCHEMA })
  } catch (e) {
    ref = `js-yaml error: ${e.message.split('\n')[0]}`
  }
  if (!isDeepStrictEqual(fast, ref)) {
    if (++differ <= 10)
      console.log(
        `differs on ${JSON.stringify(s)}\n  fast:    ${JSON.stringify(fast)}\n  js-yaml: ${JSON.stringify(ref)}`,
      )
  }
}
console.log(
  `${N} edited texts from ${seeds.length} seeds: ${answered} in the subset, ${differ} read otherwise than js-yaml`,
)
process.exitCode = differ > 0 ? 1 : 0
