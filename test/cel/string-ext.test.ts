import { describe, expect, it } from 'vitest'
import { ErrorValue } from '../../src/cel/common/errors.js'
import {
  charAt,
  indexOf,
  indexOfOffset,
  join,
  joinSeparator,
  lastIndexOf,
  lastIndexOfOffset,
  lowerAscii,
  quote,
  replace,
  replaceN,
  split,
  splitN,
  stringsExtFunctions,
  substring,
  substringRange,
  trim,
  upperAscii,
} from '../../src/cel/ext/strings.js'
import { Uint } from '../../src/cel/values/values.js'

// Expected values: cel-go v0.26 ext/strings_test.go (stringTests, TestQuoteUnquote, the version-2 cases),
// cel-spec tests/simple/testdata/string_ext.textproto where it agrees with v0.26, and the godoc
// examples in ext/strings.go. Go library semantics (strings.Replace, SplitN, TrimSpace) where noted.

function errorOf(f: () => unknown): string {
  try {
    f()
  } catch (e) {
    expect(e).toBeInstanceOf(ErrorValue)
    return (e as ErrorValue).message
  }
  throw new Error('expected an error')
}

describe('charAt', () => {
  it('strings_test.go', () => {
    expect(charAt('tacocat', 3)).toBe('o')
    expect(charAt('tacocat', 7)).toBe('')
    expect(charAt('©αT', 0)).toBe('©')
    expect(charAt('©αT', 1)).toBe('α')
    expect(charAt('©αT', 2)).toBe('T')
    expect(errorOf(() => charAt('tacocat', 30))).toBe('index out of range: 30')
  })
  it('godoc: negative index is an error', () => {
    expect(charAt('hello', 4)).toBe('o')
    expect(charAt('hello', 5)).toBe('')
    expect(errorOf(() => charAt('hello', -1))).toBe('index out of range: -1')
  })
  it('counts code points beyond the BMP', () => {
    expect(charAt('a😀b', 1)).toBe('😀')
    expect(charAt('a😀b', 2)).toBe('b')
    expect(charAt('a😀b', 3)).toBe('')
    expect(errorOf(() => charAt('a😀b', 4))).toBe('index out of range: 4')
    expect(errorOf(() => charAt('a', 9223372036854775807n))).toBe('index out of range: 9223372036854775807')
  })
})

describe('indexOf', () => {
  it('strings_test.go', () => {
    expect(indexOf('tacocat', '')).toBe(0)
    expect(indexOf('tacocat', 'ac')).toBe(1)
    expect(indexOf('tacocat', 'none')).toBe(-1)
    expect(indexOfOffset('tacocat', '', 3)).toBe(3)
    expect(indexOfOffset('tacocat', 'a', 3)).toBe(5)
    expect(indexOfOffset('tacocat', 'at', 3)).toBe(5)
    expect(indexOf('ta©o©αT', '©')).toBe(2)
    expect(indexOfOffset('ta©o©αT', '©', 3)).toBe(4)
    expect(indexOfOffset('ta©o©αT', '©αT', 3)).toBe(4)
    expect(indexOfOffset('ta©o©αT', '©α', 5)).toBe(-1)
    expect(indexOf('ijk', 'k')).toBe(2)
    expect(indexOf('hello wello', 'hello wello')).toBe(0)
    expect(indexOfOffset('hello wello', 'ello', 6)).toBe(7)
    expect(indexOf('hello wello', 'elbo room!!')).toBe(-1)
    expect(indexOf('hello wello', 'elbo room!!!')).toBe(-1)
    // cel-go #1052 (in v0.26): an offset past the end gives -1, not an error
    expect(indexOfOffset('tacocat', 'a', 30)).toBe(-1)
    expect(indexOf('', 'foo')).toBe(-1)
  })
  it('negative offsets are errors (godoc)', () => {
    expect(errorOf(() => indexOfOffset('hello mellow', 'ello', -1))).toBe('index out of range: -1')
  })
  it('v0.26 returns the offset unchecked for an empty needle (fixed later by cel-go #1335)', () => {
    expect(indexOfOffset('abc', '', -1)).toBe(-1)
    expect(indexOfOffset('abc', '', 10)).toBe(10)
  })
  it('counts code points beyond the BMP', () => {
    expect(indexOf('😀a😀b', 'b')).toBe(3)
    expect(indexOfOffset('😀a😀b', '😀', 1)).toBe(2)
    expect(indexOfOffset('😀a😀b', 'a', 2)).toBe(-1)
  })
})

describe('lastIndexOf', () => {
  it('strings_test.go', () => {
    expect(lastIndexOf('tacocat', '')).toBe(7)
    expect(lastIndexOf('tacocat', 'at')).toBe(5)
    expect(lastIndexOf('tacocat', 'none')).toBe(-1)
    expect(lastIndexOfOffset('tacocat', '', 3)).toBe(3)
    expect(lastIndexOfOffset('tacocat', 'a', 3)).toBe(1)
    expect(lastIndexOf('ta©o©αT', '©')).toBe(4)
    expect(lastIndexOfOffset('ta©o©αT', '©', 3)).toBe(2)
    expect(lastIndexOfOffset('ta©o©αT', '©α', 4)).toBe(4)
    expect(lastIndexOfOffset('hello wello', 'ello', 6)).toBe(1)
    expect(lastIndexOf('hello wello', 'low')).toBe(-1)
    expect(lastIndexOf('hello wello', 'elbo room!!')).toBe(-1)
    expect(lastIndexOf('hello wello', 'elbo room!!!')).toBe(-1)
    expect(lastIndexOf('hello wello', 'hello wello')).toBe(0)
    expect(lastIndexOfOffset('bananananana', 'nana', 7)).toBe(6)
    expect(errorOf(() => lastIndexOfOffset('tacocat', 'a', -1))).toBe('index out of range: -1')
    expect(lastIndexOfOffset('tacocat', 'a', 30)).toBe(-1)
  })
  it('an empty target gives -1 (cel-spec string_ext last_index_of empty_string, cel-go #1173)', () => {
    expect(lastIndexOf('', '@@')).toBe(-1)
    expect(lastIndexOf('', '')).toBe(0)
  })
  it('godoc examples', () => {
    expect(lastIndexOf('hello mellow', '')).toBe(12)
    expect(lastIndexOf('hello mellow', 'ello')).toBe(7)
    expect(lastIndexOfOffset('hello mellow', 'ello', 6)).toBe(1)
    expect(lastIndexOfOffset('hello mellow', 'ello', 20)).toBe(-1)
  })
  it('counts code points beyond the BMP', () => {
    expect(lastIndexOf('😀a😀b', '😀')).toBe(2)
    expect(lastIndexOfOffset('😀a😀b', '😀', 1)).toBe(0)
    expect(lastIndexOf('😀a😀b', '')).toBe(4)
  })
})

describe('lowerAscii / upperAscii', () => {
  it('strings_test.go', () => {
    expect(lowerAscii('TacoCat')).toBe('tacocat')
    expect(lowerAscii('TacoCÆt')).toBe('tacocÆt')
    expect(lowerAscii('TacoCÆt Xii')).toBe('tacocÆt xii')
    expect(upperAscii('tacoCat')).toBe('TACOCAT')
    expect(upperAscii('tacoCαt')).toBe('TACOCαT')
    expect(upperAscii('TacoCÆt Xii')).toBe('TACOCÆT XII')
  })
})

describe('replace', () => {
  it('strings_test.go', () => {
    expect(replace('12 days 12 hours', '{0}', '2')).toBe('12 days 12 hours')
    expect(replace('{0} days {0} hours', '{0}', '2')).toBe('2 days 2 hours')
    expect(replace(replaceN('{0} days {0} hours', '{0}', '2', 1), '{0}', '23')).toBe('2 days 23 hours')
    expect(replace('1 ©αT taco', 'αT', 'o©α')).toBe('1 ©o©α taco')
    expect(replace('hello hello', '', '_')).toBe('_h_e_l_l_o_ _h_e_l_l_o_')
    expect(replace('hello hello', 'h', '')).toBe('ello ello')
  })
  it('godoc examples', () => {
    expect(replace('hello hello', 'he', 'we')).toBe('wello wello')
    expect(replaceN('hello hello', 'he', 'we', -1)).toBe('wello wello')
    expect(replaceN('hello hello', 'he', 'we', 1)).toBe('wello hello')
    expect(replaceN('hello hello', 'he', 'we', 0)).toBe('hello hello')
  })
  it('follows Go strings.Replace with an empty old string and a limit', () => {
    // Go: strings.Replace("abc", "", "_", 2) == "_a_bc"; n beyond the count replaces all
    expect(replaceN('abc', '', '_', 2)).toBe('_a_bc')
    expect(replaceN('abc', '', '_', 4)).toBe('_a_b_c_')
    expect(replaceN('abc', '', '_', 100)).toBe('_a_b_c_')
    expect(replaceN('', '', '_', -1)).toBe('_')
    expect(replaceN('😀😀', '', '-', -1)).toBe('-😀-😀-')
    expect(replaceN('a$b', 'a', '$&', -1)).toBe('$&$b') // no JS replacement patterns
    expect(replaceN('aaa', 'a', 'b', 9223372036854775807n)).toBe('bbb')
  })
})

describe('split', () => {
  it('strings_test.go', () => {
    expect(split('hello world', ' ')).toEqual(['hello', 'world'])
    expect(splitN('hello world events!', ' ', 0)).toEqual([])
    expect(splitN('hello world events!', ' ', 1)).toEqual(['hello world events!'])
    expect(splitN('o©o©o©o', '©', -1)).toEqual(['o', 'o', 'o', 'o'])
  })
  it('godoc examples', () => {
    expect(split('hello hello hello', ' ')).toEqual(['hello', 'hello', 'hello'])
    expect(splitN('hello hello hello', ' ', 2)).toEqual(['hello', 'hello hello'])
  })
  it('follows Go strings.SplitN', () => {
    // Go: Split("a,b,", ",") = ["a" "b" ""]; Split("", ",") = [""]; Split("", "") = []
    expect(split('a,b,', ',')).toEqual(['a', 'b', ''])
    expect(split('', ',')).toEqual([''])
    expect(split('', '')).toEqual([])
    // empty separator: code points, the last piece holding the rest
    expect(split('a😀c', '')).toEqual(['a', '😀', 'c'])
    expect(splitN('abc', '', 2)).toEqual(['a', 'bc'])
    expect(splitN('abc', '', 5)).toEqual(['a', 'b', 'c'])
    expect(splitN('a,b,c', ',', 2)).toEqual(['a', 'b,c'])
  })
})

describe('substring', () => {
  it('strings_test.go', () => {
    expect(substring('tacocat', 4)).toBe('cat')
    expect(substring('tacocat', 7)).toBe('')
    expect(substringRange('tacocat', 0, 4)).toBe('taco')
    expect(substringRange('tacocat', 4, 4)).toBe('')
    expect(substringRange('ta©o©αT', 2, 6)).toBe('©o©α')
    expect(substringRange('ta©o©αT', 7, 7)).toBe('')
    expect(errorOf(() => substring('tacocat', 40))).toBe('index out of range: 40')
    expect(errorOf(() => substring('tacocat', -1))).toBe('index out of range: -1')
    expect(errorOf(() => substringRange('tacocat', 1, 50))).toBe('index out of range: 50')
    expect(errorOf(() => substringRange('tacocat', 49, 50))).toBe('index out of range: 49')
    expect(errorOf(() => substringRange('tacocat', 4, 3))).toBe('invalid substring range. start: 4, end: 3')
  })
  it('counts code points beyond the BMP', () => {
    expect(substring('😀a😀b', 2)).toBe('😀b')
    expect(substringRange('😀a😀b', 1, 3)).toBe('a😀')
    expect(errorOf(() => substringRange('😀a😀b', 0, 5))).toBe('index out of range: 5')
  })
})

describe('trim', () => {
  it('strings_test.go: Unicode White_Space', () => {
    expect(trim(' \f\n\r\t\vtext  ')).toBe('text')
    expect(trim('\u0085\u00a0\u1680text')).toBe('text')
    expect(trim('text\u2000\u2001\u2002\u2003\u2004\u2004\u2006\u2007\u2008\u2009')).toBe('text')
    expect(trim('\u200atext\u2028\u2029\u202F\u205F\u3000')).toBe('text')
  })
  it('strings_test.go: whitespace-like characters are kept', () => {
    const s = '\u180etext\u200b\u200c\u200d\u2060\ufeff'
    expect(trim(s)).toBe(s)
  })
  it('godoc example', () => {
    expect(trim('  \ttrim\n    ')).toBe('trim')
  })
})

describe('join (v2)', () => {
  it('strings_test.go', () => {
    expect(join(['x', 'y'])).toBe('xy')
    expect(joinSeparator(['x', 'y'], '-')).toBe('x-y')
    expect(join([])).toBe('')
    expect(joinSeparator([], '-')).toBe('')
  })
  it('godoc examples', () => {
    expect(join(['hello', 'mellow'])).toBe('hellomellow')
    expect(joinSeparator(['hello', 'mellow'], ' ')).toBe('hello mellow')
  })
  it('rejects non-string elements with join: invalid input: %v (ext/strings.go joinValSeparator)', () => {
    expect(errorOf(() => join(['a', 1]))).toBe('join: invalid input: 1')
    expect(errorOf(() => joinSeparator(['a', true], ','))).toBe('join: invalid input: true')
    expect(errorOf(() => join([new Uint(7n)]))).toBe('join: invalid input: 7')
    expect(errorOf(() => join([1.5]))).toBe('join: invalid input: 1.5')
  })
})

describe('strings.quote', () => {
  it('strings_test.go', () => {
    expect(quote('first\nsecond')).toBe('"first\\nsecond"')
    expect(quote('bell\u0007')).toBe('"bell\\a"')
    expect(quote('\bbackspace')).toBe('"\\bbackspace"')
    expect(quote('\fform feed')).toBe('"\\fform feed"')
    expect(quote('carriage \r return')).toBe('"carriage \\r return"')
    expect(quote('horizontal tab\t')).toBe('"horizontal tab\\t"')
    expect(quote('vertical \v tab')).toBe('"vertical \\v tab"')
    expect(quote('double \\\\ slash')).toBe('"double \\\\\\\\ slash"')
    expect(quote('two escape sequences \u0007\n')).toBe('"two escape sequences \\a\\n"')
    expect(quote('verbatim')).toBe('"verbatim"')
    expect(quote('ends with \\')).toBe('"ends with \\\\"')
    expect(quote('\\ starts with')).toBe('"\\\\ starts with"')
    expect(quote('printable unicode😀')).toBe('"printable unicode😀"')
    expect(quote('mid string " quote')).toBe('"mid string \\" quote"')
    expect(quote('single-quote with "double quote"')).toBe('"single-quote with \\"double quote\\""')
    expect(quote("size('ÿ')")).toBe('"size(\'ÿ\')"')
    expect(quote("size('πέντε')")).toBe('"size(\'πέντε\')"')
    expect(quote('завтра')).toBe('"завтра"')
    expect(quote('\u{1F431}\u{1F600}\u{1F61B}')).toBe('"\u{1F431}\u{1F600}\u{1F61B}"')
    expect(quote('ta©o©αT')).toBe('"ta©o©αT"')
    expect(quote('')).toBe('""')
  })
  it('replaces invalid code points with U+FFFD (TestQuoteUnquote "invalid utf8")', () => {
    expect(quote('filler \ud800')).toBe('"filler \ufffd"')
  })
  it('leaves other control characters alone', () => {
    expect(quote('a\u0000b\u001b')).toBe('"a\u0000b\u001b"')
  })
})

describe('declarations', () => {
  it('are exactly strings version 2 (ext/strings.go CompileOptions)', () => {
    const sig = stringsExtFunctions.flatMap((f) =>
      f.overloads.map(
        (o) =>
          `${f.name} ${o.id} ${o.member ? 'member' : 'global'} (${o.params.map((p) => p.toString()).join(', ')}) -> ${o.result.toString()}`,
      ),
    )
    expect(sig).toEqual([
      'charAt string_char_at_int member (string, int) -> string',
      'indexOf string_index_of_string member (string, string) -> int',
      'indexOf string_index_of_string_int member (string, string, int) -> int',
      'lastIndexOf string_last_index_of_string member (string, string) -> int',
      'lastIndexOf string_last_index_of_string_int member (string, string, int) -> int',
      'lowerAscii string_lower_ascii member (string) -> string',
      'replace string_replace_string_string member (string, string, string) -> string',
      'replace string_replace_string_string_int member (string, string, string, int) -> string',
      'split string_split_string member (string, string) -> list(string)',
      'split string_split_string_int member (string, string, int) -> list(string)',
      'substring string_substring_int member (string, int) -> string',
      'substring string_substring_int_int member (string, int, int) -> string',
      'trim string_trim member (string) -> string',
      'upperAscii string_upper_ascii member (string) -> string',
      'format string_format member (string, list(dyn)) -> string',
      'strings.quote strings_quote global (string) -> string',
      'join list_join member (list(string)) -> string',
      'join list_join_string member (list(string), string) -> string',
    ])
    expect(stringsExtFunctions.some((f) => f.name === 'reverse')).toBe(false) // version 3
  })
})
