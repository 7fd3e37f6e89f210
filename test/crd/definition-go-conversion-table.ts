// TestConversion cases "v1 to internal" transcribed mechanically from k8s.io/apiextensions-apiserver
// pkg/apis/apiextensions/v1/conversion_test.go: In is the v1 object, ExpectOut the internal one, both
// with their Go field names. Do not edit by hand.

import type { GoConversionCase } from './definition-go.js'

export const testConversion: GoConversionCase[] = [
  { Name: 'v1 to internal, no versions', In: {}, ExpectOut: { Spec: { PreserveUnknownFields: false } } },
  {
    Name: 'v1 to internal, single version',
    In: { Spec: { Versions: [{ Name: 'v1', Served: true, Storage: true }] } },
    ExpectOut: {
      Spec: { Version: 'v1', Versions: [{ Name: 'v1', Served: true, Storage: true }], PreserveUnknownFields: false },
    },
  },
  {
    Name: 'v1 to internal, multiple versions',
    In: {
      Spec: {
        Versions: [
          { Name: 'v1', Served: true, Storage: true },
          { Name: 'v2', Served: false, Storage: false },
        ],
      },
    },
    ExpectOut: {
      Spec: {
        Version: 'v1',
        Versions: [
          { Name: 'v1', Served: true, Storage: true },
          { Name: 'v2', Served: false, Storage: false },
        ],
        PreserveUnknownFields: false,
      },
    },
  },
  {
    Name: 'v1 to internal, identical validation moves to top-level',
    In: {
      Spec: {
        Versions: [
          { Name: 'v1', Served: true, Storage: true, Schema: { OpenAPIV3Schema: { Type: 'object' } } },
          { Name: 'v2', Served: true, Storage: false, Schema: { OpenAPIV3Schema: { Type: 'object' } } },
        ],
      },
    },
    ExpectOut: {
      Spec: {
        Version: 'v1',
        Versions: [
          { Name: 'v1', Served: true, Storage: true },
          { Name: 'v2', Served: true, Storage: false },
        ],
        Validation: { OpenAPIV3Schema: { Type: 'object' } },
        PreserveUnknownFields: false,
      },
    },
  },
  {
    Name: 'v1 to internal, distinct validation remains per-version',
    In: {
      Spec: {
        Versions: [
          {
            Name: 'v1',
            Served: true,
            Storage: true,
            Schema: { OpenAPIV3Schema: { Description: 'v1', Type: 'object' } },
          },
          {
            Name: 'v2',
            Served: true,
            Storage: false,
            Schema: { OpenAPIV3Schema: { Description: 'v2', Type: 'object' } },
          },
        ],
      },
    },
    ExpectOut: {
      Spec: {
        Version: 'v1',
        Versions: [
          {
            Name: 'v1',
            Served: true,
            Storage: true,
            Schema: { OpenAPIV3Schema: { Description: 'v1', Type: 'object' } },
          },
          {
            Name: 'v2',
            Served: true,
            Storage: false,
            Schema: { OpenAPIV3Schema: { Description: 'v2', Type: 'object' } },
          },
        ],
        PreserveUnknownFields: false,
      },
    },
  },
  {
    Name: 'v1 to internal, identical subresources moves to top-level',
    In: {
      Spec: {
        Versions: [
          { Name: 'v1', Served: true, Storage: true, Subresources: { Scale: { SpecReplicasPath: 'spec.replicas' } } },
          { Name: 'v2', Served: true, Storage: false, Subresources: { Scale: { SpecReplicasPath: 'spec.replicas' } } },
        ],
      },
    },
    ExpectOut: {
      Spec: {
        Version: 'v1',
        Versions: [
          { Name: 'v1', Served: true, Storage: true },
          { Name: 'v2', Served: true, Storage: false },
        ],
        Subresources: { Scale: { SpecReplicasPath: 'spec.replicas' } },
        PreserveUnknownFields: false,
      },
    },
  },
  {
    Name: 'v1 to internal, distinct subresources remains per-version',
    In: {
      Spec: {
        Versions: [
          { Name: 'v1', Served: true, Storage: true, Subresources: { Scale: { SpecReplicasPath: 'spec.replicas1' } } },
          { Name: 'v2', Served: true, Storage: false, Subresources: { Scale: { SpecReplicasPath: 'spec.replicas2' } } },
        ],
      },
    },
    ExpectOut: {
      Spec: {
        Version: 'v1',
        Versions: [
          { Name: 'v1', Served: true, Storage: true, Subresources: { Scale: { SpecReplicasPath: 'spec.replicas1' } } },
          { Name: 'v2', Served: true, Storage: false, Subresources: { Scale: { SpecReplicasPath: 'spec.replicas2' } } },
        ],
        PreserveUnknownFields: false,
      },
    },
  },
  {
    Name: 'v1 to internal, identical printer columns moves to top-level',
    In: {
      Spec: {
        Versions: [
          { Name: 'v1', Served: true, Storage: true, AdditionalPrinterColumns: [{ Name: 'column1' }] },
          { Name: 'v2', Served: true, Storage: false, AdditionalPrinterColumns: [{ Name: 'column1' }] },
        ],
      },
    },
    ExpectOut: {
      Spec: {
        Version: 'v1',
        Versions: [
          { Name: 'v1', Served: true, Storage: true },
          { Name: 'v2', Served: true, Storage: false },
        ],
        AdditionalPrinterColumns: [{ Name: 'column1' }],
        PreserveUnknownFields: false,
      },
    },
  },
  {
    Name: 'v1 to internal, distinct printer columns remains per-version',
    In: {
      Spec: {
        Versions: [
          { Name: 'v1', Served: true, Storage: true, AdditionalPrinterColumns: [{ Name: 'column1' }] },
          { Name: 'v2', Served: true, Storage: false, AdditionalPrinterColumns: [{ Name: 'column2' }] },
        ],
      },
    },
    ExpectOut: {
      Spec: {
        Version: 'v1',
        Versions: [
          { Name: 'v1', Served: true, Storage: true, AdditionalPrinterColumns: [{ Name: 'column1' }] },
          { Name: 'v2', Served: true, Storage: false, AdditionalPrinterColumns: [{ Name: 'column2' }] },
        ],
        PreserveUnknownFields: false,
      },
    },
  },
  {
    Name: 'v1 to internal, identical selectable fields moves to top-level',
    In: {
      Spec: {
        Versions: [
          { Name: 'v1', Served: true, Storage: true, SelectableFields: [{ JSONPath: '.spec.x' }] },
          { Name: 'v2', Served: true, Storage: false, SelectableFields: [{ JSONPath: '.spec.x' }] },
        ],
      },
    },
    ExpectOut: {
      Spec: {
        Version: 'v1',
        Versions: [
          { Name: 'v1', Served: true, Storage: true },
          { Name: 'v2', Served: true, Storage: false },
        ],
        SelectableFields: [{ JSONPath: '.spec.x' }],
        PreserveUnknownFields: false,
      },
    },
  },
  {
    Name: 'v1 to internal, single selectable field moves to top-level',
    In: {
      Spec: { Versions: [{ Name: 'v1', Served: true, Storage: true, SelectableFields: [{ JSONPath: '.spec.x' }] }] },
    },
    ExpectOut: {
      Spec: {
        Version: 'v1',
        Versions: [{ Name: 'v1', Served: true, Storage: true }],
        SelectableFields: [{ JSONPath: '.spec.x' }],
        PreserveUnknownFields: false,
      },
    },
  },
  {
    Name: 'v1 to internal, distinct selectable fields remains per-version',
    In: {
      Spec: {
        Versions: [
          { Name: 'v1', Served: true, Storage: true, SelectableFields: [{ JSONPath: '.spec.x' }] },
          { Name: 'v2', Served: true, Storage: false, SelectableFields: [{ JSONPath: '.spec.y' }] },
        ],
      },
    },
    ExpectOut: {
      Spec: {
        Version: 'v1',
        Versions: [
          { Name: 'v1', Served: true, Storage: true, SelectableFields: [{ JSONPath: '.spec.x' }] },
          { Name: 'v2', Served: true, Storage: false, SelectableFields: [{ JSONPath: '.spec.y' }] },
        ],
        PreserveUnknownFields: false,
      },
    },
  },
  {
    Name: 'v1 to internal, no webhook client config',
    In: { Spec: { Conversion: {} } },
    ExpectOut: { Spec: { Conversion: {}, PreserveUnknownFields: false } },
  },
  {
    Name: 'v1 to internal, webhook client config',
    In: { Spec: { Conversion: { Webhook: { ClientConfig: { URL: 'http://example.com' } } } } },
    ExpectOut: {
      Spec: { Conversion: { WebhookClientConfig: { URL: 'http://example.com' } }, PreserveUnknownFields: false },
    },
  },
  {
    Name: 'v1 to internal, webhook versions',
    In: { Spec: { Conversion: { Webhook: { ConversionReviewVersions: ['v1'] } } } },
    ExpectOut: { Spec: { Conversion: { ConversionReviewVersions: ['v1'] }, PreserveUnknownFields: false } },
  },
]
