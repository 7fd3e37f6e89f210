import { describe, expect, it } from 'vitest'
import { exitCode, type Finding, type ObjectResult, type Report } from '../../src/report/model.js'

// The exit code as docs/cli-json.md states it: 2 when any finding (a diagnostic or an object's) has level `error`,
// else 1 when any is at or above --fail-on, else 0. Read without an array of every finding (issue 29).

const finding = (level: Finding['level']): Finding => ({ level, type: 'policy', rule: 'r', message: 'm' })
const object = (findings: Finding[]): ObjectResult =>
  ({
    source: { file: 'f.yaml' },
    apiVersion: 'v1',
    kind: 'ConfigMap',
    name: 'c',
    operation: 'CREATE',
    outcome: 'allowed',
    findings,
  }) as ObjectResult
const report = (diagnostics: Finding[], objects: ObjectResult[]): Report =>
  ({ diagnostics, objects }) as unknown as Report

describe('exitCode', () => {
  it('2 for an error anywhere, whatever --fail-on', () => {
    expect(exitCode(report([finding('error')], []), 'none')).toBe(2)
    expect(exitCode(report([], [object([finding('warn')]), object([finding('deny'), finding('error')])]), 'none')).toBe(
      2,
    )
  })
  it('1 at or above --fail-on, in a diagnostic or an object', () => {
    expect(exitCode(report([], [object([]), object([finding('deny')])]), 'deny')).toBe(1)
    expect(exitCode(report([finding('warn')], [object([])]), 'warn')).toBe(1)
    expect(exitCode(report([], [object([finding('audit')])]), 'audit')).toBe(1)
  })
  it('0 below --fail-on, with none, and with no finding', () => {
    expect(exitCode(report([], [object([finding('warn')])]), 'deny')).toBe(0)
    expect(exitCode(report([finding('info')], [object([finding('deny')])]), 'none')).toBe(0)
    expect(exitCode(report([], []), 'deny')).toBe(0)
  })
})
