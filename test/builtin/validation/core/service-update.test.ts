import { describe, expect, it } from 'vitest'
import { validateServiceUpdate } from '../../../../src/builtin/validation/core/service.js'
import { errorString } from '../../../../src/kube/field.js'
import type { O } from '../support.js'

// kubernetes v1.37.2 pkg/apis/core/validation/validation_test.go TestValidateServiceUpdate, every case
// (Go counts the errors of ValidateServiceUpdate on makeValidService() after each tweak; the
// registry's hooks do not run, so neither do they here: validateServiceUpdate is called directly).
// StrictIPCIDRValidation is on in the Go test; the cases with RelaxedServiceNameValidation disabled
// run at 1.35, the last release with that gate off by default.

const makeValidService = (): O => ({
  metadata: { name: 'valid', namespace: 'valid', labels: {}, annotations: {}, resourceVersion: '1' },
  spec: {
    selector: { key: 'val' },
    sessionAffinity: 'None',
    type: 'ClusterIP',
    ports: [{ name: 'p', protocol: 'TCP', port: 8675, targetPort: 8675 }],
    internalTrafficPolicy: 'Cluster',
  },
})

type Case = [name: string, tweak: (o: O, n: O) => void, numErrs: number, minor?: number]

const cases: Case[] = [
  ['no change', () => {}, 0],
  [
    'change name',
    (_o, n) => {
      n.metadata.name += '2'
    },
    1,
  ],
  [
    'change namespace',
    (_o, n) => {
      n.metadata.namespace += '2'
    },
    1,
  ],
  [
    'change label valid',
    (_o, n) => {
      n.metadata.labels['key'] = 'other-value'
    },
    0,
  ],
  [
    'add label',
    (_o, n) => {
      n.metadata.labels['key2'] = 'value2'
    },
    0,
  ],
  [
    'change cluster IP',
    (o, n) => {
      o.spec.clusterIP = '1.2.3.4'
      o.spec.clusterIPs = ['1.2.3.4']
      n.spec.clusterIP = '8.6.7.5'
      n.spec.clusterIPs = ['8.6.7.5']
    },
    1,
  ],
  [
    'remove cluster IP',
    (o, n) => {
      o.spec.clusterIP = '1.2.3.4'
      o.spec.clusterIPs = ['1.2.3.4']
      n.spec.clusterIP = ''
      delete n.spec.clusterIPs
    },
    1,
  ],
  [
    'change affinity',
    (_o, n) => {
      n.spec.sessionAffinity = 'ClientIP'
      n.spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 90 } }
    },
    0,
  ],
  [
    'remove affinity',
    (_o, n) => {
      n.spec.sessionAffinity = ''
    },
    1,
  ],
  [
    'change type',
    (_o, n) => {
      n.spec.type = 'LoadBalancer'
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.allocateLoadBalancerNodePorts = true
    },
    0,
  ],
  [
    'remove type',
    (_o, n) => {
      n.spec.type = ''
    },
    1,
  ],
  [
    'change type -> nodeport',
    (_o, n) => {
      n.spec.type = 'NodePort'
      n.spec.externalTrafficPolicy = 'Cluster'
    },
    0,
  ],
  [
    'add loadBalancerSourceRanges',
    (o, n) => {
      o.spec.type = 'LoadBalancer'
      o.spec.allocateLoadBalancerNodePorts = true
      n.spec.type = 'LoadBalancer'
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.allocateLoadBalancerNodePorts = true
      n.spec.loadBalancerSourceRanges = ['10.0.0.0/8']
    },
    0,
  ],
  [
    'update loadBalancerSourceRanges',
    (o, n) => {
      o.spec.type = 'LoadBalancer'
      o.spec.allocateLoadBalancerNodePorts = true
      o.spec.loadBalancerSourceRanges = ['10.0.0.0/8']
      n.spec.type = 'LoadBalancer'
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.allocateLoadBalancerNodePorts = true
      n.spec.loadBalancerSourceRanges = ['10.100.0.0/16']
    },
    0,
  ],
  [
    'LoadBalancer type cannot have None ClusterIP',
    (_o, n) => {
      n.spec.clusterIP = 'None'
      n.spec.clusterIPs = ['None']
      n.spec.type = 'LoadBalancer'
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.allocateLoadBalancerNodePorts = true
    },
    1,
  ],
  [
    '`None` ClusterIP can NOT be changed',
    (o, n) => {
      o.spec.type = 'ClusterIP'
      n.spec.type = 'ClusterIP'
      o.spec.clusterIP = 'None'
      o.spec.clusterIPs = ['None']
      n.spec.clusterIP = '1.2.3.4'
      n.spec.clusterIPs = ['1.2.3.4']
    },
    1,
  ],
  [
    '`None` ClusterIP can NOT be removed',
    (o, n) => {
      o.spec.clusterIP = 'None'
      o.spec.clusterIPs = ['None']
      n.spec.clusterIP = ''
      delete n.spec.clusterIPs
    },
    1,
  ],
  [
    'ClusterIP can NOT be changed to None',
    (o, n) => {
      o.spec.clusterIP = '1.2.3.4'
      o.spec.clusterIPs = ['1.2.3.4']
      n.spec.clusterIP = 'None'
      n.spec.clusterIPs = ['None']
    },
    1,
  ],
  [
    'Service with ClusterIP type cannot change its set ClusterIP',
    (o, n) => {
      o.spec.type = 'ClusterIP'
      n.spec.type = 'ClusterIP'
      o.spec.clusterIP = '1.2.3.4'
      o.spec.clusterIPs = ['1.2.3.4']
      n.spec.clusterIP = '1.2.3.5'
      n.spec.clusterIPs = ['1.2.3.5']
    },
    1,
  ],
  [
    'Service with ClusterIP type can change its empty ClusterIP',
    (o, n) => {
      o.spec.type = 'ClusterIP'
      n.spec.type = 'ClusterIP'
      o.spec.clusterIP = ''
      delete o.spec.clusterIPs
      n.spec.clusterIP = '1.2.3.5'
      n.spec.clusterIPs = ['1.2.3.5']
    },
    0,
  ],
  [
    'Service with ClusterIP type cannot change its set ClusterIP when changing type to NodePort',
    (o, n) => {
      o.spec.type = 'ClusterIP'
      n.spec.type = 'NodePort'
      n.spec.externalTrafficPolicy = 'Cluster'
      o.spec.clusterIP = '1.2.3.4'
      o.spec.clusterIPs = ['1.2.3.4']
      n.spec.clusterIP = '1.2.3.5'
      n.spec.clusterIPs = ['1.2.3.5']
    },
    1,
  ],
  [
    'Service with ClusterIP type can change its empty ClusterIP when changing type to NodePort',
    (o, n) => {
      o.spec.type = 'ClusterIP'
      n.spec.type = 'NodePort'
      n.spec.externalTrafficPolicy = 'Cluster'
      o.spec.clusterIP = ''
      delete o.spec.clusterIPs
      n.spec.clusterIP = '1.2.3.5'
      n.spec.clusterIPs = ['1.2.3.5']
    },
    0,
  ],
  [
    'Service with ClusterIP type cannot change its ClusterIP when changing type to LoadBalancer',
    (o, n) => {
      o.spec.type = 'ClusterIP'
      n.spec.type = 'LoadBalancer'
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.allocateLoadBalancerNodePorts = true
      o.spec.clusterIP = '1.2.3.4'
      o.spec.clusterIPs = ['1.2.3.4']
      n.spec.clusterIP = '1.2.3.5'
      n.spec.clusterIPs = ['1.2.3.5']
    },
    1,
  ],
  [
    'Service with ClusterIP type can change its empty ClusterIP when changing type to LoadBalancer',
    (o, n) => {
      o.spec.type = 'ClusterIP'
      n.spec.type = 'LoadBalancer'
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.allocateLoadBalancerNodePorts = true
      o.spec.clusterIP = ''
      delete o.spec.clusterIPs
      n.spec.clusterIP = '1.2.3.5'
      n.spec.clusterIPs = ['1.2.3.5']
    },
    0,
  ],
  [
    'Service with LoadBalancer type can change its AllocateLoadBalancerNodePorts from true to false',
    (o, n) => {
      o.spec.type = 'LoadBalancer'
      o.spec.allocateLoadBalancerNodePorts = true
      n.spec.type = 'LoadBalancer'
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.allocateLoadBalancerNodePorts = false
    },
    0,
  ],
  [
    'Service with LoadBalancer type can change its AllocateLoadBalancerNodePorts from false to true',
    (o, n) => {
      o.spec.type = 'LoadBalancer'
      o.spec.allocateLoadBalancerNodePorts = false
      n.spec.type = 'LoadBalancer'
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.allocateLoadBalancerNodePorts = true
    },
    0,
  ],
  [
    'Service with NodePort type cannot change its set ClusterIP',
    (o, n) => {
      o.spec.type = 'NodePort'
      n.spec.type = 'NodePort'
      n.spec.externalTrafficPolicy = 'Cluster'
      o.spec.clusterIP = '1.2.3.4'
      o.spec.clusterIPs = ['1.2.3.4']
      n.spec.clusterIP = '1.2.3.5'
      n.spec.clusterIPs = ['1.2.3.5']
    },
    1,
  ],
  [
    'Service with NodePort type can change its empty ClusterIP',
    (o, n) => {
      o.spec.type = 'NodePort'
      n.spec.type = 'NodePort'
      n.spec.externalTrafficPolicy = 'Cluster'
      o.spec.clusterIP = ''
      delete o.spec.clusterIPs
      n.spec.clusterIP = '1.2.3.5'
      n.spec.clusterIPs = ['1.2.3.5']
    },
    0,
  ],
  [
    'Service with NodePort type cannot change its set ClusterIP when changing type to ClusterIP',
    (o, n) => {
      o.spec.type = 'NodePort'
      n.spec.type = 'ClusterIP'
      o.spec.clusterIP = '1.2.3.4'
      o.spec.clusterIPs = ['1.2.3.4']
      n.spec.clusterIP = '1.2.3.5'
      n.spec.clusterIPs = ['1.2.3.5']
    },
    1,
  ],
  [
    'Service with NodePort type can change its empty ClusterIP when changing type to ClusterIP',
    (o, n) => {
      o.spec.type = 'NodePort'
      n.spec.type = 'ClusterIP'
      o.spec.clusterIP = ''
      delete o.spec.clusterIPs
      n.spec.clusterIP = '1.2.3.5'
      n.spec.clusterIPs = ['1.2.3.5']
    },
    0,
  ],
  [
    'Service with NodePort type cannot change its set ClusterIP when changing type to LoadBalancer',
    (o, n) => {
      o.spec.type = 'NodePort'
      n.spec.type = 'LoadBalancer'
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.allocateLoadBalancerNodePorts = true
      o.spec.clusterIP = '1.2.3.4'
      o.spec.clusterIPs = ['1.2.3.4']
      n.spec.clusterIP = '1.2.3.5'
      n.spec.clusterIPs = ['1.2.3.5']
    },
    1,
  ],
  [
    'Service with NodePort type can change its empty ClusterIP when changing type to LoadBalancer',
    (o, n) => {
      o.spec.type = 'NodePort'
      n.spec.type = 'LoadBalancer'
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.allocateLoadBalancerNodePorts = true
      o.spec.clusterIP = ''
      delete o.spec.clusterIPs
      n.spec.clusterIP = '1.2.3.5'
      n.spec.clusterIPs = ['1.2.3.5']
    },
    0,
  ],
  [
    'Service with LoadBalancer type cannot change its set ClusterIP',
    (o, n) => {
      o.spec.type = 'LoadBalancer'
      o.spec.allocateLoadBalancerNodePorts = true
      n.spec.type = 'LoadBalancer'
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.allocateLoadBalancerNodePorts = true
      o.spec.clusterIP = '1.2.3.4'
      o.spec.clusterIPs = ['1.2.3.4']
      n.spec.clusterIP = '1.2.3.5'
      n.spec.clusterIPs = ['1.2.3.5']
    },
    1,
  ],
  [
    'Service with LoadBalancer type can change its empty ClusterIP',
    (o, n) => {
      o.spec.type = 'LoadBalancer'
      o.spec.allocateLoadBalancerNodePorts = true
      n.spec.type = 'LoadBalancer'
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.allocateLoadBalancerNodePorts = true
      o.spec.clusterIP = ''
      delete o.spec.clusterIPs
      n.spec.clusterIP = '1.2.3.5'
      n.spec.clusterIPs = ['1.2.3.5']
    },
    0,
  ],
  [
    'Service with LoadBalancer type cannot change its set ClusterIP when changing type to ClusterIP',
    (o, n) => {
      o.spec.type = 'LoadBalancer'
      o.spec.allocateLoadBalancerNodePorts = true
      n.spec.type = 'ClusterIP'
      o.spec.clusterIP = '1.2.3.4'
      o.spec.clusterIPs = ['1.2.3.4']
      n.spec.clusterIP = '1.2.3.5'
      n.spec.clusterIPs = ['1.2.3.5']
    },
    1,
  ],
  [
    'Service with LoadBalancer type can change its empty ClusterIP when changing type to ClusterIP',
    (o, n) => {
      o.spec.type = 'LoadBalancer'
      o.spec.allocateLoadBalancerNodePorts = true
      n.spec.type = 'ClusterIP'
      o.spec.clusterIP = ''
      delete o.spec.clusterIPs
      n.spec.clusterIP = '1.2.3.5'
      n.spec.clusterIPs = ['1.2.3.5']
    },
    0,
  ],
  [
    'Service with LoadBalancer type cannot change its set ClusterIP when changing type to NodePort',
    (o, n) => {
      o.spec.type = 'LoadBalancer'
      o.spec.allocateLoadBalancerNodePorts = true
      n.spec.type = 'NodePort'
      n.spec.externalTrafficPolicy = 'Cluster'
      o.spec.clusterIP = '1.2.3.4'
      o.spec.clusterIPs = ['1.2.3.4']
      n.spec.clusterIP = '1.2.3.5'
      n.spec.clusterIPs = ['1.2.3.5']
    },
    1,
  ],
  [
    'Service with LoadBalancer type can change its empty ClusterIP when changing type to NodePort',
    (o, n) => {
      o.spec.type = 'LoadBalancer'
      o.spec.allocateLoadBalancerNodePorts = true
      n.spec.type = 'NodePort'
      n.spec.externalTrafficPolicy = 'Cluster'
      o.spec.clusterIP = ''
      delete o.spec.clusterIPs
      n.spec.clusterIP = '1.2.3.5'
      n.spec.clusterIPs = ['1.2.3.5']
    },
    0,
  ],
  [
    'Service with ExternalName type can change its empty ClusterIP when changing type to ClusterIP',
    (o, n) => {
      o.spec.type = 'ExternalName'
      n.spec.type = 'ClusterIP'
      o.spec.clusterIP = ''
      delete o.spec.clusterIPs
      n.spec.clusterIP = '1.2.3.5'
      n.spec.clusterIPs = ['1.2.3.5']
    },
    0,
  ],
  [
    'Service with ExternalName type can change its set ClusterIP when changing type to ClusterIP',
    (o, n) => {
      o.spec.type = 'ExternalName'
      n.spec.type = 'ClusterIP'
      o.spec.clusterIP = '1.2.3.4'
      o.spec.clusterIPs = ['1.2.3.4']
      n.spec.clusterIP = '1.2.3.5'
      n.spec.clusterIPs = ['1.2.3.5']
    },
    0,
  ],
  [
    'invalid node port with clusterIP None',
    (o, n) => {
      o.spec.type = 'NodePort'
      n.spec.type = 'NodePort'
      n.spec.externalTrafficPolicy = 'Cluster'
      o.spec.ports.push({ name: 'q', port: 1, protocol: 'TCP', nodePort: 1, targetPort: 1 })
      n.spec.ports.push({ name: 'q', port: 1, protocol: 'TCP', nodePort: 1, targetPort: 1 })
      o.spec.clusterIP = ''
      delete o.spec.clusterIPs
      n.spec.clusterIP = 'None'
      n.spec.clusterIPs = ['None']
    },
    1,
  ],
  [
    'convert from ExternalName',
    (o, n) => {
      o.spec.type = 'ExternalName'
      n.spec.type = 'ClusterIP'
    },
    0,
  ],
  [
    'invalid: convert to ExternalName',
    (o, n) => {
      o.spec.type = 'ClusterIP'
      o.spec.clusterIP = '10.0.0.10'
      o.spec.clusterIPs = ['10.0.0.10']
      o.spec.ipFamilies = ['IPv4']
      o.spec.ipFamilyPolicy = 'SingleStack'
      n.spec.type = 'ExternalName'
      n.spec.externalName = 'foo'
      n.spec.clusterIP = '10.0.0.10'
      n.spec.clusterIPs = ['10.0.0.10']
      n.spec.ipFamilies = ['IPv4']
      n.spec.ipFamilyPolicy = 'SingleStack'
    },
    3,
  ],
  [
    'valid: convert to ExternalName',
    (o, n) => {
      o.spec.type = 'ClusterIP'
      o.spec.clusterIP = '10.0.0.10'
      o.spec.clusterIPs = ['10.0.0.10']
      o.spec.ipFamilies = ['IPv4']
      o.spec.ipFamilyPolicy = 'SingleStack'
      n.spec.type = 'ExternalName'
      n.spec.externalName = 'foo'
    },
    0,
  ],
  [
    'same ServiceIPFamily',
    (o, n) => {
      o.spec.type = 'ClusterIP'
      o.spec.ipFamilies = ['IPv4']
      n.spec.type = 'ClusterIP'
      n.spec.ipFamilies = ['IPv4']
    },
    0,
  ],
  [
    'same ServiceIPFamily, change IPFamilyPolicy to singleStack',
    (o, n) => {
      o.spec.type = 'ClusterIP'
      delete o.spec.ipFamilyPolicy
      o.spec.ipFamilies = ['IPv4']
      n.spec.ipFamilyPolicy = 'SingleStack'
      n.spec.type = 'ClusterIP'
      n.spec.ipFamilies = ['IPv4']
    },
    0,
  ],
  [
    'same ServiceIPFamily, change IPFamilyPolicy singleStack => requireDualStack',
    (o, n) => {
      o.spec.type = 'ClusterIP'
      o.spec.ipFamilyPolicy = 'SingleStack'
      o.spec.ipFamilies = ['IPv4']
      n.spec.ipFamilyPolicy = 'RequireDualStack'
      n.spec.type = 'ClusterIP'
      n.spec.ipFamilies = ['IPv4']
    },
    0,
  ],
  [
    'add a new ServiceIPFamily',
    (o, n) => {
      o.spec.ipFamilyPolicy = 'RequireDualStack'
      o.spec.type = 'ClusterIP'
      o.spec.ipFamilies = ['IPv4']
      n.spec.ipFamilyPolicy = 'RequireDualStack'
      n.spec.type = 'ClusterIP'
      n.spec.ipFamilies = ['IPv4', 'IPv6']
    },
    0,
  ],
  [
    'ExternalName while changing Service IPFamily',
    (o, n) => {
      o.spec.externalName = 'somename'
      o.spec.type = 'ExternalName'
      n.spec.externalName = 'somename'
      n.spec.type = 'ExternalName'
    },
    0,
  ],
  [
    'setting ipfamily from nil to v4',
    (o, n) => {
      delete o.spec.ipFamilies
      n.spec.externalName = 'somename'
      n.spec.ipFamilies = ['IPv4']
    },
    0,
  ],
  [
    'setting ipfamily from nil to v6',
    (o, n) => {
      delete o.spec.ipFamilies
      n.spec.externalName = 'somename'
      n.spec.ipFamilies = ['IPv6']
    },
    0,
  ],
  [
    'change primary ServiceIPFamily',
    (o, n) => {
      o.spec.clusterIP = '1.2.3.4'
      o.spec.clusterIPs = ['1.2.3.4']
      o.spec.type = 'ClusterIP'
      o.spec.ipFamilies = ['IPv4']
      n.spec.type = 'ClusterIP'
      n.spec.clusterIP = '1.2.3.4'
      n.spec.clusterIPs = ['1.2.3.4']
      n.spec.ipFamilies = ['IPv6']
    },
    2,
  ],
  [
    'valid: upgrade to dual stack with requiredDualStack',
    (o, n) => {
      o.spec.clusterIP = '1.2.3.4'
      o.spec.clusterIPs = ['1.2.3.4']
      o.spec.type = 'ClusterIP'
      o.spec.ipFamilyPolicy = 'SingleStack'
      o.spec.ipFamilies = ['IPv4']
      n.spec.type = 'ClusterIP'
      n.spec.clusterIP = '1.2.3.4'
      n.spec.clusterIPs = ['1.2.3.4']
      o.spec.ipFamilyPolicy = 'RequireDualStack'
      n.spec.ipFamilies = ['IPv4']
    },
    0,
  ],
  [
    'valid: upgrade to dual stack with preferDualStack',
    (o, n) => {
      o.spec.clusterIP = '1.2.3.4'
      o.spec.clusterIPs = ['1.2.3.4']
      o.spec.type = 'ClusterIP'
      o.spec.ipFamilyPolicy = 'SingleStack'
      o.spec.ipFamilies = ['IPv4']
      n.spec.type = 'ClusterIP'
      n.spec.clusterIP = '1.2.3.4'
      n.spec.clusterIPs = ['1.2.3.4']
      n.spec.ipFamilyPolicy = 'PreferDualStack'
      n.spec.ipFamilies = ['IPv4']
    },
    0,
  ],
  [
    'valid: upgrade to dual stack, no specific secondary ip',
    (o, n) => {
      o.spec.clusterIP = '1.2.3.4'
      o.spec.clusterIPs = ['1.2.3.4']
      o.spec.type = 'ClusterIP'
      o.spec.ipFamilyPolicy = 'SingleStack'
      o.spec.ipFamilies = ['IPv4']
      n.spec.type = 'ClusterIP'
      n.spec.clusterIP = '1.2.3.4'
      n.spec.clusterIPs = ['1.2.3.4']
      n.spec.ipFamilyPolicy = 'RequireDualStack'
      n.spec.ipFamilies = ['IPv4', 'IPv6']
    },
    0,
  ],
  [
    'valid: upgrade to dual stack, with specific secondary ip',
    (o, n) => {
      o.spec.clusterIP = '1.2.3.4'
      o.spec.clusterIPs = ['1.2.3.4']
      o.spec.type = 'ClusterIP'
      o.spec.ipFamilyPolicy = 'SingleStack'
      o.spec.ipFamilies = ['IPv4']
      n.spec.type = 'ClusterIP'
      n.spec.clusterIP = '1.2.3.4'
      n.spec.clusterIPs = ['1.2.3.4', '2001::1']
      n.spec.ipFamilyPolicy = 'RequireDualStack'
      n.spec.ipFamilies = ['IPv4', 'IPv6']
    },
    0,
  ],
  [
    'valid: downgrade from dual to single',
    (o, n) => {
      o.spec.clusterIP = '1.2.3.4'
      o.spec.clusterIPs = ['1.2.3.4', '2001::1']
      o.spec.type = 'ClusterIP'
      o.spec.ipFamilyPolicy = 'RequireDualStack'
      o.spec.ipFamilies = ['IPv4', 'IPv6']
      n.spec.type = 'ClusterIP'
      n.spec.clusterIP = '1.2.3.4'
      n.spec.clusterIPs = ['1.2.3.4']
      n.spec.ipFamilyPolicy = 'SingleStack'
      n.spec.ipFamilies = ['IPv4']
    },
    0,
  ],
  [
    'valid: change families for a headless service',
    (o, n) => {
      o.spec.clusterIP = 'None'
      o.spec.clusterIPs = ['None']
      o.spec.type = 'ClusterIP'
      o.spec.ipFamilyPolicy = 'RequireDualStack'
      o.spec.ipFamilies = ['IPv4', 'IPv6']
      n.spec.type = 'ClusterIP'
      n.spec.clusterIP = 'None'
      n.spec.clusterIPs = ['None']
      n.spec.ipFamilyPolicy = 'RequireDualStack'
      n.spec.ipFamilies = ['IPv6', 'IPv4']
    },
    0,
  ],
  [
    'valid: upgrade a headless service',
    (o, n) => {
      o.spec.clusterIP = 'None'
      o.spec.clusterIPs = ['None']
      o.spec.type = 'ClusterIP'
      o.spec.ipFamilyPolicy = 'SingleStack'
      o.spec.ipFamilies = ['IPv4']
      n.spec.type = 'ClusterIP'
      n.spec.clusterIP = 'None'
      n.spec.clusterIPs = ['None']
      n.spec.ipFamilyPolicy = 'RequireDualStack'
      n.spec.ipFamilies = ['IPv6', 'IPv4']
    },
    0,
  ],
  [
    'valid: downgrade a headless service',
    (o, n) => {
      o.spec.clusterIP = 'None'
      o.spec.clusterIPs = ['None']
      o.spec.type = 'ClusterIP'
      o.spec.ipFamilyPolicy = 'RequireDualStack'
      o.spec.ipFamilies = ['IPv4', 'IPv6']
      n.spec.type = 'ClusterIP'
      n.spec.clusterIP = 'None'
      n.spec.clusterIPs = ['None']
      n.spec.ipFamilyPolicy = 'SingleStack'
      n.spec.ipFamilies = ['IPv6']
    },
    0,
  ],
  [
    'invalid flip families',
    (o, n) => {
      o.spec.clusterIP = '1.2.3.40'
      o.spec.clusterIPs = ['1.2.3.4', '2001::1']
      o.spec.type = 'ClusterIP'
      o.spec.ipFamilyPolicy = 'RequireDualStack'
      o.spec.ipFamilies = ['IPv4', 'IPv6']
      n.spec.type = 'ClusterIP'
      n.spec.clusterIP = '2001::1'
      n.spec.clusterIPs = ['2001::1', '1.2.3.5']
      n.spec.ipFamilyPolicy = 'RequireDualStack'
      n.spec.ipFamilies = ['IPv6', 'IPv4']
    },
    4,
  ],
  [
    'invalid change first ip, in dualstack service',
    (o, n) => {
      o.spec.clusterIPs = ['1.2.3.4', '2001::1']
      o.spec.clusterIP = '1.2.3.4'
      o.spec.type = 'ClusterIP'
      o.spec.ipFamilyPolicy = 'RequireDualStack'
      o.spec.ipFamilies = ['IPv4', 'IPv6']
      n.spec.type = 'ClusterIP'
      n.spec.clusterIP = '1.2.3.5'
      n.spec.clusterIPs = ['1.2.3.5', '2001::1']
      n.spec.ipFamilyPolicy = 'RequireDualStack'
      n.spec.ipFamilies = ['IPv4', 'IPv6']
    },
    1,
  ],
  [
    'invalid, change second ip in dualstack service',
    (o, n) => {
      o.spec.clusterIP = '1.2.3.4'
      o.spec.clusterIPs = ['1.2.3.4', '2001::1']
      o.spec.type = 'ClusterIP'
      o.spec.ipFamilyPolicy = 'RequireDualStack'
      o.spec.ipFamilies = ['IPv4', 'IPv6']
      n.spec.type = 'ClusterIP'
      n.spec.clusterIP = '1.2.3.4'
      n.spec.clusterIPs = ['1.2.3.4', '2002::1']
      n.spec.ipFamilyPolicy = 'RequireDualStack'
      n.spec.ipFamilies = ['IPv4', 'IPv6']
    },
    1,
  ],
  [
    'downgrade keeping the families',
    (o, n) => {
      o.spec.clusterIP = '1.2.3.4'
      o.spec.clusterIPs = ['1.2.3.4', '2001::1']
      o.spec.type = 'ClusterIP'
      o.spec.ipFamilyPolicy = 'RequireDualStack'
      o.spec.ipFamilies = ['IPv4', 'IPv6']
      n.spec.type = 'ClusterIP'
      n.spec.clusterIP = '1.2.3.4'
      n.spec.clusterIPs = ['1.2.3.4']
      n.spec.ipFamilyPolicy = 'SingleStack'
      n.spec.ipFamilies = ['IPv4', 'IPv6']
    },
    0,
  ],
  [
    'invalid, downgrade without changing to singleStack',
    (o, n) => {
      o.spec.clusterIP = '1.2.3.4'
      o.spec.clusterIPs = ['1.2.3.4', '2001::1']
      o.spec.type = 'ClusterIP'
      o.spec.ipFamilyPolicy = 'RequireDualStack'
      o.spec.ipFamilies = ['IPv4', 'IPv6']
      n.spec.type = 'ClusterIP'
      n.spec.clusterIP = '1.2.3.4'
      n.spec.clusterIPs = ['1.2.3.4']
      n.spec.ipFamilyPolicy = 'RequireDualStack'
      n.spec.ipFamilies = ['IPv4']
    },
    2,
  ],
  [
    'invalid, downgrade and change primary ip',
    (o, n) => {
      o.spec.clusterIP = '1.2.3.4'
      o.spec.clusterIPs = ['1.2.3.4', '2001::1']
      o.spec.type = 'ClusterIP'
      o.spec.ipFamilyPolicy = 'RequireDualStack'
      o.spec.ipFamilies = ['IPv4', 'IPv6']
      n.spec.type = 'ClusterIP'
      n.spec.clusterIP = '1.2.3.5'
      n.spec.clusterIPs = ['1.2.3.5']
      n.spec.ipFamilyPolicy = 'SingleStack'
      n.spec.ipFamilies = ['IPv4']
    },
    1,
  ],
  [
    'invalid: upgrade to dual stack and change primary',
    (o, n) => {
      o.spec.clusterIP = '1.2.3.4'
      o.spec.clusterIPs = ['1.2.3.4']
      o.spec.type = 'ClusterIP'
      o.spec.ipFamilyPolicy = 'SingleStack'
      o.spec.ipFamilies = ['IPv4']
      n.spec.type = 'ClusterIP'
      n.spec.clusterIP = '1.2.3.5'
      n.spec.clusterIPs = ['1.2.3.5']
      n.spec.ipFamilyPolicy = 'RequireDualStack'
      n.spec.ipFamilies = ['IPv4', 'IPv6']
    },
    1,
  ],
  [
    'update to valid app protocol',
    (o, n) => {
      o.spec.ports = [{ name: 'a', port: 443, targetPort: 3000, protocol: 'TCP' }]
      n.spec.ports = [{ name: 'a', port: 443, targetPort: 3000, protocol: 'TCP', appProtocol: 'https' }]
    },
    0,
  ],
  [
    'update to invalid app protocol',
    (o, n) => {
      o.spec.ports = [{ name: 'a', port: 443, targetPort: 3000, protocol: 'TCP' }]
      n.spec.ports = [{ name: 'a', port: 443, targetPort: 3000, protocol: 'TCP', appProtocol: '~https' }]
    },
    1,
  ],
  [
    'Set AllocateLoadBalancerNodePorts when type is not LoadBalancer',
    (_o, n) => {
      n.spec.allocateLoadBalancerNodePorts = true
    },
    1,
  ],
  [
    'update LoadBalancer type of service without change LoadBalancerClass',
    (o, n) => {
      o.spec.type = 'LoadBalancer'
      o.spec.allocateLoadBalancerNodePorts = true
      o.spec.loadBalancerClass = 'test.com/test-old'
      n.spec.type = 'LoadBalancer'
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.allocateLoadBalancerNodePorts = true
      n.spec.loadBalancerClass = 'test.com/test-old'
    },
    0,
  ],
  [
    'invalid: change LoadBalancerClass when update service',
    (o, n) => {
      o.spec.type = 'LoadBalancer'
      o.spec.allocateLoadBalancerNodePorts = true
      o.spec.loadBalancerClass = 'test.com/test-old'
      n.spec.type = 'LoadBalancer'
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.allocateLoadBalancerNodePorts = true
      n.spec.loadBalancerClass = 'test.com/test-new'
    },
    1,
  ],
  [
    'invalid: unset LoadBalancerClass when update service',
    (o, n) => {
      o.spec.type = 'LoadBalancer'
      o.spec.allocateLoadBalancerNodePorts = true
      o.spec.loadBalancerClass = 'test.com/test-old'
      n.spec.type = 'LoadBalancer'
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.allocateLoadBalancerNodePorts = true
      delete n.spec.loadBalancerClass
    },
    1,
  ],
  [
    'invalid: set LoadBalancerClass when update service',
    (o, n) => {
      o.spec.type = 'LoadBalancer'
      o.spec.allocateLoadBalancerNodePorts = true
      delete o.spec.loadBalancerClass
      n.spec.type = 'LoadBalancer'
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.allocateLoadBalancerNodePorts = true
      n.spec.loadBalancerClass = 'test.com/test-new'
    },
    1,
  ],
  [
    'update to LoadBalancer type of service with valid LoadBalancerClass',
    (o, n) => {
      o.spec.type = 'ClusterIP'
      n.spec.type = 'LoadBalancer'
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.allocateLoadBalancerNodePorts = true
      n.spec.loadBalancerClass = 'test.com/test-load-balancer-class'
    },
    0,
  ],
  [
    'update to LoadBalancer type of service without LoadBalancerClass',
    (o, n) => {
      o.spec.type = 'ClusterIP'
      n.spec.type = 'LoadBalancer'
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.allocateLoadBalancerNodePorts = true
      delete n.spec.loadBalancerClass
    },
    0,
  ],
  [
    'invalid: set invalid LoadBalancerClass when update service to LoadBalancer',
    (o, n) => {
      o.spec.type = 'ClusterIP'
      n.spec.type = 'LoadBalancer'
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.allocateLoadBalancerNodePorts = true
      n.spec.loadBalancerClass = 'Bad/LoadBalancerclass'
    },
    2,
  ],
  [
    'invalid: set LoadBalancerClass when update service to non LoadBalancer type of service',
    (o, n) => {
      o.spec.type = 'ClusterIP'
      n.spec.type = 'ClusterIP'
      n.spec.loadBalancerClass = 'test.com/test-load-balancer-class'
    },
    2,
  ],
  [
    'invalid: set LoadBalancerClass when update service to non LoadBalancer type of service',
    (o, n) => {
      o.spec.type = 'ExternalName'
      n.spec.type = 'ExternalName'
      n.spec.loadBalancerClass = 'test.com/test-load-balancer-class'
    },
    3,
  ],
  [
    'invalid: set LoadBalancerClass when update service to non LoadBalancer type of service',
    (o, n) => {
      o.spec.type = 'NodePort'
      n.spec.type = 'NodePort'
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.loadBalancerClass = 'test.com/test-load-balancer-class'
    },
    2,
  ],
  [
    'invalid: set LoadBalancerClass when update from LoadBalancer service to non LoadBalancer type of service',
    (o, n) => {
      o.spec.type = 'LoadBalancer'
      o.spec.allocateLoadBalancerNodePorts = true
      o.spec.loadBalancerClass = 'test.com/test-load-balancer-class'
      n.spec.type = 'ClusterIP'
      n.spec.loadBalancerClass = 'test.com/test-load-balancer-class'
    },
    2,
  ],
  [
    'invalid: set LoadBalancerClass when update from LoadBalancer service to non LoadBalancer type of service',
    (o, n) => {
      o.spec.type = 'LoadBalancer'
      o.spec.allocateLoadBalancerNodePorts = true
      o.spec.loadBalancerClass = 'test.com/test-load-balancer-class'
      n.spec.type = 'ExternalName'
      n.spec.loadBalancerClass = 'test.com/test-load-balancer-class'
    },
    3,
  ],
  [
    'invalid: set LoadBalancerClass when update from LoadBalancer service to non LoadBalancer type of service',
    (o, n) => {
      o.spec.type = 'LoadBalancer'
      o.spec.allocateLoadBalancerNodePorts = true
      o.spec.loadBalancerClass = 'test.com/test-load-balancer-class'
      n.spec.type = 'NodePort'
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.loadBalancerClass = 'test.com/test-load-balancer-class'
    },
    2,
  ],
  [
    'update internalTrafficPolicy from Cluster to Local',
    (o, n) => {
      o.spec.internalTrafficPolicy = 'Cluster'
      n.spec.internalTrafficPolicy = 'Local'
    },
    0,
  ],
  [
    'update internalTrafficPolicy from Local to Cluster',
    (o, n) => {
      o.spec.internalTrafficPolicy = 'Local'
      n.spec.internalTrafficPolicy = 'Cluster'
    },
    0,
  ],
  [
    'topology annotations are mismatched',
    (_o, n) => {
      n.metadata.annotations['service.kubernetes.io/topology-aware-hints'] = 'original'
      n.metadata.annotations['service.kubernetes.io/topology-mode'] = 'different'
    },
    1,
  ],
  [
    'pre-existing invalid clusterIP ignored when updating other fields',
    (o, n) => {
      o.spec.clusterIP = '1.2.3.04'
      o.spec.clusterIPs = ['1.2.3.04']
      n.spec.clusterIP = '1.2.3.04'
      n.spec.clusterIPs = ['1.2.3.04']
      n.metadata.labels['foo'] = 'bar'
    },
    0,
  ],
  [
    'pre-existing invalid clusterIP ignored when adding clusterIPs',
    (o, n) => {
      o.spec.clusterIP = '1.2.3.04'
      o.spec.clusterIPs = ['1.2.3.04']
      o.spec.ipFamilyPolicy = 'SingleStack'
      o.spec.ipFamilies = ['IPv4']
      n.spec.clusterIP = '1.2.3.04'
      n.spec.clusterIPs = ['1.2.3.04', '2001:db8::4']
      n.spec.ipFamilyPolicy = 'RequireDualStack'
      n.spec.ipFamilies = ['IPv4', 'IPv6']
    },
    0,
  ],
  [
    'pre-existing invalid clusterIP ignored when removing clusterIPs',
    (o, n) => {
      o.spec.clusterIP = '1.2.3.04'
      o.spec.clusterIPs = ['1.2.3.04', '2001:db::4']
      o.spec.ipFamilyPolicy = 'RequireDualStack'
      o.spec.ipFamilies = ['IPv4', 'IPv6']
      n.spec.clusterIP = '1.2.3.04'
      n.spec.clusterIPs = ['1.2.3.04']
      n.spec.ipFamilyPolicy = 'SingleStack'
      n.spec.ipFamilies = ['IPv4']
    },
    0,
  ],
  [
    'pre-existing invalid externalIP ignored',
    (o, n) => {
      o.spec.externalTrafficPolicy = 'Cluster'
      o.spec.externalIPs = ['1.2.3.04']
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.externalIPs = ['1.2.3.04']
      n.metadata.labels['foo'] = 'bar'
    },
    0,
  ],
  [
    'pre-existing invalid externalIP ignored when adding externalIPs',
    (o, n) => {
      o.spec.externalTrafficPolicy = 'Cluster'
      o.spec.externalIPs = ['1.2.3.04']
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.externalIPs = ['5.6.7.8', '1.2.3.04']
    },
    0,
  ],
  [
    'pre-existing invalid externalIP ignored when removing externalIPs',
    (o, n) => {
      o.spec.externalTrafficPolicy = 'Cluster'
      o.spec.externalIPs = ['5.6.7.8', '1.2.3.04']
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.externalIPs = ['1.2.3.04']
    },
    0,
  ],
  [
    'can fix invalid externalIP',
    (o, n) => {
      o.spec.externalTrafficPolicy = 'Cluster'
      o.spec.externalIPs = ['1.2.3.04']
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.externalIPs = ['1.2.3.4']
    },
    0,
  ],
  [
    "can't add invalid externalIP",
    (o, n) => {
      o.spec.externalTrafficPolicy = 'Cluster'
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.externalIPs = ['1.2.3.04']
    },
    1,
  ],
  [
    'pre-existing invalid loadBalancerSourceRanges ignored when updating other fields',
    (o, n) => {
      o.spec.type = 'LoadBalancer'
      o.spec.allocateLoadBalancerNodePorts = true
      o.spec.loadBalancerSourceRanges = ['010.0.0.0/8']
      n.spec.type = 'LoadBalancer'
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.allocateLoadBalancerNodePorts = true
      n.spec.loadBalancerSourceRanges = ['010.0.0.0/8']
      n.metadata.labels['foo'] = 'bar'
    },
    0,
  ],
  [
    'pre-existing invalid loadBalancerSourceRanges ignored when adding source ranges',
    (o, n) => {
      o.spec.type = 'LoadBalancer'
      o.spec.allocateLoadBalancerNodePorts = true
      o.spec.loadBalancerSourceRanges = ['010.0.0.0/8']
      n.spec.type = 'LoadBalancer'
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.allocateLoadBalancerNodePorts = true
      n.spec.loadBalancerSourceRanges = ['1.2.3.0/24', '010.0.0.0/8']
    },
    0,
  ],
  [
    'pre-existing invalid loadBalancerSourceRanges ignored when removing source ranges',
    (o, n) => {
      o.spec.type = 'LoadBalancer'
      o.spec.allocateLoadBalancerNodePorts = true
      o.spec.loadBalancerSourceRanges = ['1.2.3.0/24', '010.0.0.0/8']
      n.spec.type = 'LoadBalancer'
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.allocateLoadBalancerNodePorts = true
      o.spec.loadBalancerSourceRanges = ['010.0.0.0/8']
    },
    0,
  ],
  [
    'can fix invalid loadBalancerSourceRanges',
    (o, n) => {
      o.spec.type = 'LoadBalancer'
      o.spec.allocateLoadBalancerNodePorts = true
      o.spec.loadBalancerSourceRanges = ['010.0.0.0/8']
      n.spec.type = 'LoadBalancer'
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.allocateLoadBalancerNodePorts = true
      n.spec.loadBalancerSourceRanges = ['10.0.0.0/8']
    },
    0,
  ],
  [
    "can't add invalid loadBalancerSourceRanges",
    (o, n) => {
      o.spec.type = 'LoadBalancer'
      o.spec.allocateLoadBalancerNodePorts = true
      n.spec.type = 'LoadBalancer'
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.allocateLoadBalancerNodePorts = true
      n.spec.loadBalancerSourceRanges = ['010.0.0.0/8']
    },
    1,
  ],
  [
    'pre-existing invalid source ranges ignored when updating other fields',
    (o, n) => {
      o.spec.type = 'LoadBalancer'
      o.spec.allocateLoadBalancerNodePorts = true
      o.metadata.annotations['service.beta.kubernetes.io/load-balancer-source-ranges'] = '010.0.0.0/8'
      n.spec.type = 'LoadBalancer'
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.allocateLoadBalancerNodePorts = true
      n.metadata.annotations['service.beta.kubernetes.io/load-balancer-source-ranges'] = '010.0.0.0/8'
      n.metadata.labels['foo'] = 'bar'
    },
    0,
  ],
  [
    'can fix invalid source ranges annotation',
    (o, n) => {
      o.spec.type = 'LoadBalancer'
      o.spec.allocateLoadBalancerNodePorts = true
      o.metadata.annotations['service.beta.kubernetes.io/load-balancer-source-ranges'] = '010.0.0.0/8'
      n.spec.type = 'LoadBalancer'
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.allocateLoadBalancerNodePorts = true
      n.metadata.annotations['service.beta.kubernetes.io/load-balancer-source-ranges'] = '10.0.0.0/8'
    },
    0,
  ],
  [
    "can't modify pre-existing invalid source ranges annotation without fixing it",
    (o, n) => {
      o.spec.type = 'LoadBalancer'
      o.spec.allocateLoadBalancerNodePorts = true
      o.metadata.annotations['service.beta.kubernetes.io/load-balancer-source-ranges'] = '010.0.0.0/8'
      n.spec.type = 'LoadBalancer'
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.allocateLoadBalancerNodePorts = true
      n.metadata.annotations['service.beta.kubernetes.io/load-balancer-source-ranges'] = '010.0.0.0/8, 1.2.3.0/24'
    },
    1,
  ],
  [
    "can't add invalid source ranges annotation",
    (o, n) => {
      o.spec.type = 'LoadBalancer'
      o.spec.allocateLoadBalancerNodePorts = true
      n.spec.type = 'LoadBalancer'
      n.spec.externalTrafficPolicy = 'Cluster'
      n.spec.allocateLoadBalancerNodePorts = true
      n.metadata.annotations['service.beta.kubernetes.io/load-balancer-source-ranges'] = '010.0.0.0/8, 1.2.3.0/24'
    },
    1,
  ],
  [
    'can modify a pre-existing relaxed service name without error',
    (o, n) => {
      o.metadata.name = '1-test-service'
      n.metadata.name = '1-test-service'
      n.metadata.labels['foo'] = 'bar'
    },
    0,
    35,
  ],
]

describe('TestValidateServiceUpdate', () => {
  it.each(cases)('%s', (_name, tweak, numErrs, minor = 37) => {
    const o = makeValidService()
    const n = makeValidService()
    tweak(o, n)
    const errs = validateServiceUpdate(n, o, minor).map(errorString)
    expect(errs, errs.join('\n')).toHaveLength(numErrs)
  })
})
