// The tag kubelet's defaulting reads from an image name (kubernetes pkg/util/parsers ParseImageName
// over github.com/distribution/reference ParseNormalizedNamed): the reference's tag, `latest` when
// it has neither tag nor digest, '' when it has only a digest or does not parse (a name that does
// not parse, like one with capitals in its path, is defaulted IfNotPresent).

const alnum = '[a-z0-9]+'
const separator = '(?:[._]|__|[-]+)'
const pathComponent = `${alnum}(?:${separator}${alnum})*`
const domainComponent = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])'
const host = `(?:${domainComponent}(?:\\.${domainComponent})*|\\[(?:[a-fA-F0-9:]+)\\])`
const domainAndPort = `${host}(?::[0-9]+)?`
const name = `(?:${domainAndPort}/)?${pathComponent}(?:/${pathComponent})*`
const tag = '[\\w][\\w.-]{0,127}'
const digest = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][0-9a-fA-F]{32,}'
const REFERENCE = new RegExp(`^(${name})(?::(${tag}))?(?:@(${digest}))?$`)
const IDENTIFIER = /^[a-f0-9]{64}$/

/** splitDockerDomain's remainder: the part after a domain (a first component with `.` or `:`, `localhost`, or capitals). */
function remainderOf(s: string): string {
  const i = s.indexOf('/')
  if (i < 0) return s
  const first = s.slice(0, i)
  if (!first.includes('.') && !first.includes(':') && first !== 'localhost' && first.toLowerCase() === first) return s
  return s.slice(i + 1)
}

export function imageTag(image: string): string {
  if (IDENTIFIER.test(image)) return ''
  const remainder = remainderOf(image)
  const sep = remainder.indexOf(':')
  const remote = sep < 0 ? remainder : remainder.slice(0, sep)
  if (remote.toLowerCase() !== remote) return ''
  const m = REFERENCE.exec(image)
  if (m === null) return ''
  if ((m[1] ?? '').length > 255) return ''
  const t = m[2] ?? ''
  if (t === '' && m[3] === undefined) return 'latest'
  return t
}
