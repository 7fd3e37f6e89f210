import { describe, expect, it } from 'vitest'
import { PolicySet } from '../../src/engine/policy-set.js'

// Kinds whose validation kelp does not cover, but whose ObjectMeta rules it knows (the rows of
// src/builtin/strategies.ts with metadataOnly): their metadata is validated on create, the rest is not
// (the report keeps saying "not covered"). Expected texts: a real kube-apiserver 1.37.2 in the differential corpus
// (test/e2e/differential, mutations meta/name-uppercase-underscore and meta/label-key-space).

const set = PolicySet.build([])
type O = Record<string, unknown>
const endpoints = (metadata: O): O => ({
  apiVersion: 'v1',
  kind: 'Endpoints',
  metadata: { namespace: 'default', ...metadata },
  subsets: [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 1 }] }],
})

describe('ObjectMeta of Endpoints and CSIDriver (ValidateObjectMeta with NameIsDNSSubdomain)', () => {
  it('refuses a name that is not a DNS subdomain, in the apiserver words', () => {
    const r = set.validate(endpoints({ name: 'Bad_glusterfs-cluster' }))
    expect(r.allowed).toBe(false)
    expect(r.builtin?.message).toBe(
      'The Endpoints "Bad_glusterfs-cluster" is invalid: metadata.name: Invalid value: "Bad_glusterfs-cluster": ' +
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must " +
        "start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is " +
        "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    )
    const csi = set.validate({
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSIDriver',
      metadata: { name: 'Bad_csi.spiffe.io' },
    })
    expect(csi.allowed).toBe(false)
    expect(csi.builtin?.errors.map((e) => e.field)).toEqual(['metadata.name'])
  })

  it('refuses a bad label key', () => {
    const r = set.validate(endpoints({ name: 'glusterfs-cluster', labels: { 'bad key': 'x' } }))
    expect(r.builtin?.message).toMatch(
      /^The Endpoints "glusterfs-cluster" is invalid: metadata\.labels: Invalid value: "bad key": name part must consist of alphanumeric characters/,
    )
  })

  it('admits valid metadata; both kinds are validated natively now', () => {
    // validation/core/endpoints.ts and validation/storage (CSIDriver's spec defaulted by the apiserver's defaults)
    const r = set.validate({
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSIDriver',
      metadata: { name: 'csi.spiffe.io' },
      spec: {},
    })
    expect(r.status?.message).toBeUndefined()
    expect(r.builtin?.nativeValidation).toBe('validated')
    expect(set.validate(endpoints({ name: 'glusterfs-cluster' })).builtin?.nativeValidation).toBe('validated')
  })
})
