// Test tables transcribed mechanically from k8s.io/apiextensions-apiserver
// pkg/apis/apiextensions/validation/validation_test.go: each Go composite literal as a JavaScript
// object with the Go field names (definition-go.ts turns them into kelp's internal types), each
// validationMatch as the same matcher. Do not edit by hand.

import {
  apiextensions_ConditionTrue,
  apiextensions_Established,
  duplicate,
  environment_MustBaseEnvSet,
  exampleCert,
  forbidden,
  type GoCase,
  type GoValidationCase,
  invalid,
  invalidIndex,
  invalidtypecode,
  required,
  singleVersionList,
  tooMany,
  unsupported,
  validUnstructuralValidationSchema,
  validValidationSchema,
  version_MajorMinor,
} from './definition-go.js'

/** TestValidateCustomResourceDefinition */
export const testValidateCustomResourceDefinition: GoCase[] = [
  {
    name: 'invalid types disallowed',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Scope: 'Cluster',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Versions: [{ Name: 'version', Served: true, Storage: true }],
        Validation: { OpenAPIV3Schema: { Type: 'object', Properties: { foo: { Type: 'bogus' } } } },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [unsupported('spec.validation.openAPIV3Schema.properties[foo].type')],
  },
  {
    name: 'webhookconfig: invalid port 0',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Scope: 'Cluster',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Versions: [
          { Name: 'version', Served: true, Storage: true },
          { Name: 'version2', Served: true, Storage: false },
        ],
        Conversion: { Strategy: 'Webhook', WebhookClientConfig: { Service: { Name: 'n', Namespace: 'ns', Port: 0 } } },
        Validation: { OpenAPIV3Schema: { Type: 'object' } },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [invalid('spec', 'conversion', 'webhookClientConfig', 'service', 'port')],
  },
  {
    name: 'webhookconfig: invalid port 65536',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Scope: 'Cluster',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Versions: [
          { Name: 'version', Served: true, Storage: true },
          { Name: 'version2', Served: true, Storage: false },
        ],
        Conversion: {
          Strategy: 'Webhook',
          WebhookClientConfig: { Service: { Name: 'n', Namespace: 'ns', Port: 65536 } },
        },
        Validation: { OpenAPIV3Schema: { Type: 'object' } },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [invalid('spec', 'conversion', 'webhookClientConfig', 'service', 'port')],
  },
  {
    name: 'webhookconfig: invalid CABundle should be allowed on Create',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Scope: 'Cluster',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Versions: [
          { Name: 'version', Served: true, Storage: true },
          { Name: 'version2', Served: true, Storage: false },
        ],
        Conversion: {
          Strategy: 'Webhook',
          WebhookClientConfig: { Service: { Name: 'n', Namespace: 'ns', Port: 443 }, CABundle: 'Cg==' },
        },
        Validation: { OpenAPIV3Schema: { Type: 'object' } },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [],
  },
  {
    name: 'webhookconfig: valid CABundle',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Scope: 'Cluster',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Versions: [
          { Name: 'version', Served: true, Storage: true },
          { Name: 'version2', Served: true, Storage: false },
        ],
        Conversion: {
          Strategy: 'Webhook',
          WebhookClientConfig: { Service: { Name: 'n', Namespace: 'ns', Port: 443 }, CABundle: exampleCert },
        },
        Validation: { OpenAPIV3Schema: { Type: 'object' } },
        PreserveUnknownFields: false,
      },
      Status: {
        StoredVersions: ['version'],
        Conditions: [{ Type: apiextensions_Established, Status: apiextensions_ConditionTrue }],
      },
    },
    errors: [],
  },
  {
    name: 'webhookconfig: both service and URL provided',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Scope: 'Cluster',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Versions: [
          { Name: 'version', Served: true, Storage: true },
          { Name: 'version2', Served: true, Storage: false },
        ],
        Conversion: {
          Strategy: 'Webhook',
          WebhookClientConfig: { URL: 'https://example.com/webhook', Service: { Name: 'n', Namespace: 'ns' } },
        },
        Validation: { OpenAPIV3Schema: { Type: 'object' } },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [required('spec', 'conversion', 'webhookClientConfig')],
  },
  {
    name: 'webhookconfig: blank URL',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Scope: 'Cluster',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Versions: [
          { Name: 'version', Served: true, Storage: true },
          { Name: 'version2', Served: true, Storage: false },
        ],
        Conversion: { Strategy: 'Webhook', WebhookClientConfig: { URL: '' } },
        Validation: { OpenAPIV3Schema: { Type: 'object' } },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [
      invalid('spec', 'conversion', 'webhookClientConfig', 'url'),
      invalid('spec', 'conversion', 'webhookClientConfig', 'url'),
    ],
  },
  {
    name: 'webhookconfig_should_not_be_set',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Scope: 'Cluster',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Versions: [
          { Name: 'version', Served: true, Storage: true },
          { Name: 'version2', Served: true, Storage: false },
        ],
        Conversion: { Strategy: 'None', WebhookClientConfig: { URL: 'https://example.com/webhook' } },
        PreserveUnknownFields: false,
        Validation: { OpenAPIV3Schema: { Type: 'object' } },
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [forbidden('spec', 'conversion', 'webhookClientConfig')],
  },
  {
    name: 'ConversionReviewVersions_should_not_be_set',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Scope: 'Cluster',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Versions: [
          { Name: 'version', Served: true, Storage: true },
          { Name: 'version2', Served: true, Storage: false },
        ],
        Conversion: { Strategy: 'None', ConversionReviewVersions: ['v1beta1'] },
        PreserveUnknownFields: false,
        Validation: { OpenAPIV3Schema: { Type: 'object' } },
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [forbidden('spec', 'conversion', 'conversionReviewVersions')],
  },
  {
    name: 'webhookconfig: invalid ConversionReviewVersion',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Scope: 'Cluster',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Versions: [
          { Name: 'version', Served: true, Storage: true },
          { Name: 'version2', Served: true, Storage: false },
        ],
        Conversion: {
          Strategy: 'Webhook',
          WebhookClientConfig: { URL: 'https://example.com/webhook' },
          ConversionReviewVersions: ['invalid-version'],
        },
        Validation: { OpenAPIV3Schema: { Type: 'object' } },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [invalid('spec', 'conversion', 'conversionReviewVersions')],
  },
  {
    name: 'webhookconfig: invalid ConversionReviewVersion version string',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Scope: 'Cluster',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Versions: [
          { Name: 'version', Served: true, Storage: true },
          { Name: 'version2', Served: true, Storage: false },
        ],
        Conversion: {
          Strategy: 'Webhook',
          WebhookClientConfig: { URL: 'https://example.com/webhook' },
          ConversionReviewVersions: ['0v'],
        },
        Validation: { OpenAPIV3Schema: { Type: 'object' } },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [
      invalidIndex(0, 'spec', 'conversion', 'conversionReviewVersions'),
      invalid('spec', 'conversion', 'conversionReviewVersions'),
    ],
  },
  {
    name: 'webhookconfig: at least one valid ConversionReviewVersion',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Scope: 'Cluster',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Versions: [
          { Name: 'version', Served: true, Storage: true },
          { Name: 'version2', Served: true, Storage: false },
        ],
        Conversion: {
          Strategy: 'Webhook',
          WebhookClientConfig: { URL: 'https://example.com/webhook' },
          ConversionReviewVersions: ['invalid-version', 'v1beta1'],
        },
        Validation: { OpenAPIV3Schema: { Type: 'object' } },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [],
  },
  {
    name: 'webhookconfig: duplicate ConversionReviewVersion',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Scope: 'Cluster',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Versions: [
          { Name: 'version', Served: true, Storage: true },
          { Name: 'version2', Served: true, Storage: false },
        ],
        Conversion: {
          Strategy: 'Webhook',
          WebhookClientConfig: { URL: 'https://example.com/webhook' },
          ConversionReviewVersions: ['v1beta1', 'v1beta1'],
        },
        Validation: { OpenAPIV3Schema: { Type: 'object' } },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [invalidIndex(1, 'spec', 'conversion', 'conversionReviewVersions')],
  },
  {
    name: 'missing_webhookconfig',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Scope: 'Cluster',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Versions: [
          { Name: 'version', Served: true, Storage: true },
          { Name: 'version2', Served: true, Storage: false },
        ],
        Conversion: { Strategy: 'Webhook' },
        Validation: { OpenAPIV3Schema: { Type: 'object' } },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [required('spec', 'conversion', 'webhookClientConfig')],
  },
  {
    name: 'invalid_conversion_strategy',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Scope: 'Cluster',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Versions: [
          { Name: 'version', Served: true, Storage: true },
          { Name: 'version2', Served: true, Storage: false },
        ],
        Conversion: { Strategy: 'non_existing_conversion' },
        Validation: { OpenAPIV3Schema: { Type: 'object' } },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [unsupported('spec', 'conversion', 'strategy')],
  },
  {
    name: 'none conversion without preserveUnknownFields=false',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Scope: 'Cluster',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Versions: [
          { Name: 'version1', Served: true, Storage: true },
          { Name: 'version2', Served: true, Storage: false },
        ],
        Conversion: { Strategy: 'None' },
        PreserveUnknownFields: undefined,
        Validation: { OpenAPIV3Schema: { Type: 'object' } },
      },
      Status: { StoredVersions: ['version1'] },
    },
    errors: [],
  },
  {
    name: 'webhook conversion without preserveUnknownFields=false',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Scope: 'Cluster',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Versions: [
          { Name: 'version1', Served: true, Storage: true },
          { Name: 'version2', Served: true, Storage: false },
        ],
        Conversion: {
          Strategy: 'Webhook',
          WebhookClientConfig: { URL: 'https://example.com/webhook' },
          ConversionReviewVersions: ['v1beta1'],
        },
        PreserveUnknownFields: undefined,
        Validation: { OpenAPIV3Schema: { Type: 'object' } },
      },
      Status: { StoredVersions: ['version1'] },
    },
    errors: [invalid('spec', 'conversion', 'strategy')],
  },
  {
    name: 'webhook conversion with preserveUnknownFields=false, conversionReviewVersions=[v1beta1]',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Scope: 'Cluster',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Versions: [
          { Name: 'version1', Served: true, Storage: true },
          { Name: 'version2', Served: true, Storage: false },
        ],
        Conversion: {
          Strategy: 'Webhook',
          WebhookClientConfig: { URL: 'https://example.com/webhook' },
          ConversionReviewVersions: ['v1beta1'],
        },
        Validation: { OpenAPIV3Schema: { Type: 'object' } },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version1'] },
    },
    errors: [],
  },
  {
    name: 'webhook conversion with preserveUnknownFields=false, conversionReviewVersions=[v1]',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Scope: 'Cluster',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Versions: [
          { Name: 'version1', Served: true, Storage: true },
          { Name: 'version2', Served: true, Storage: false },
        ],
        Conversion: {
          Strategy: 'Webhook',
          WebhookClientConfig: { URL: 'https://example.com/webhook' },
          ConversionReviewVersions: ['v1'],
        },
        Validation: { OpenAPIV3Schema: { Type: 'object' } },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version1'] },
    },
    errors: [],
  },
  {
    name: 'no_storage_version',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Scope: 'Cluster',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Versions: [
          { Name: 'version', Served: true, Storage: false },
          { Name: 'version2', Served: true, Storage: false },
        ],
        Conversion: { Strategy: 'None' },
        PreserveUnknownFields: false,
        Validation: { OpenAPIV3Schema: { Type: 'object' } },
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [invalid('spec', 'versions')],
  },
  {
    name: 'multiple_storage_version',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Scope: 'Cluster',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Versions: [
          { Name: 'version', Served: true, Storage: true },
          { Name: 'version2', Served: true, Storage: true },
        ],
        Conversion: { Strategy: 'None' },
        PreserveUnknownFields: false,
        Validation: { OpenAPIV3Schema: { Type: 'object' } },
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [invalid('spec', 'versions'), invalid('status', 'storedVersions')],
  },
  {
    name: 'missing_storage_version_in_stored_versions',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Scope: 'Cluster',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Versions: [
          { Name: 'version', Served: true, Storage: false },
          { Name: 'version2', Served: true, Storage: true },
        ],
        Conversion: { Strategy: 'None' },
        PreserveUnknownFields: false,
        Validation: { OpenAPIV3Schema: { Type: 'object' } },
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [invalid('status', 'storedVersions')],
  },
  {
    name: 'empty_stored_version',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Scope: 'Cluster',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Versions: [{ Name: 'version', Served: true, Storage: true }],
        Conversion: { Strategy: 'None' },
        PreserveUnknownFields: false,
        Validation: { OpenAPIV3Schema: { Type: 'object' } },
      },
      Status: { StoredVersions: [] },
    },
    errors: [invalid('status', 'storedVersions')],
  },
  {
    name: 'mismatched name',
    resource: {
      ObjectMeta: { Name: 'plural.not.group.com' },
      Spec: {
        Group: 'group.com',
        Names: { Plural: 'plural' },
        PreserveUnknownFields: false,
        Validation: { OpenAPIV3Schema: { Type: 'object' } },
      },
    },
    errors: [
      invalid('status', 'storedVersions'),
      invalid('metadata', 'name'),
      invalid('spec', 'versions'),
      required('spec', 'scope'),
      required('spec', 'names', 'singular'),
      required('spec', 'names', 'kind'),
      required('spec', 'names', 'listKind'),
    ],
  },
  {
    name: 'missing values',
    resource: { ObjectMeta: { Name: 'plural.group.com' } },
    errors: [
      invalid('status', 'storedVersions'),
      invalid('metadata', 'name'),
      invalid('spec', 'versions'),
      required('spec', 'group'),
      required('spec', 'scope'),
      required('spec', 'names', 'plural'),
      required('spec', 'names', 'singular'),
      required('spec', 'names', 'kind'),
      required('spec', 'names', 'listKind'),
    ],
  },
  {
    name: 'bad names 01',
    resource: {
      ObjectMeta: { Name: 'plural.group' },
      Spec: {
        Group: 'group',
        Version: 've()*rsion',
        Scope: 'foo',
        Names: { Plural: 'pl()*ural', Singular: 'value()*a', Kind: 'value()*a', ListKind: 'value()*a' },
        PreserveUnknownFields: false,
        Validation: { OpenAPIV3Schema: { Type: 'object' } },
      },
      Status: {
        AcceptedNames: { Plural: 'pl()*ural', Singular: 'value()*a', Kind: 'value()*a', ListKind: 'value()*a' },
      },
    },
    errors: [
      invalid('status', 'storedVersions'),
      invalid('metadata', 'name'),
      invalid('spec', 'group'),
      unsupported('spec', 'scope'),
      invalid('spec', 'names', 'plural'),
      invalid('spec', 'names', 'singular'),
      invalid('spec', 'names', 'kind'),
      invalid('spec', 'names', 'listKind'),
      invalid('spec', 'names', 'listKind'),
      invalid('status', 'acceptedNames', 'plural'),
      invalid('status', 'acceptedNames', 'singular'),
      invalid('status', 'acceptedNames', 'kind'),
      invalid('status', 'acceptedNames', 'listKind'),
      invalid('status', 'acceptedNames', 'listKind'),
      invalid('spec', 'versions'),
      invalid('spec', 'version'),
    ],
  },
  {
    name: 'bad names 02',
    resource: {
      ObjectMeta: { Name: 'plural.group' },
      Spec: {
        Group: 'group.c(*&om',
        Version: 'version',
        Versions: singleVersionList,
        Conversion: { Strategy: 'None' },
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'matching', ListKind: 'matching' },
        PreserveUnknownFields: false,
        Validation: { OpenAPIV3Schema: { Type: 'object' } },
      },
      Status: {
        AcceptedNames: { Plural: 'plural', Singular: 'singular', Kind: 'matching', ListKind: 'matching' },
        StoredVersions: ['version'],
      },
    },
    errors: [
      invalid('metadata', 'name'),
      invalid('spec', 'group'),
      required('spec', 'scope'),
      invalid('spec', 'names', 'listKind'),
      invalid('status', 'acceptedNames', 'listKind'),
    ],
  },
  {
    name: 'additionalProperties and properties forbidden',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Version: 'version',
        Versions: singleVersionList,
        Conversion: { Strategy: 'None' },
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Validation: {
          OpenAPIV3Schema: {
            Type: 'object',
            Properties: {
              foo: { Type: 'object', Properties: { bar: { Type: 'object' } }, AdditionalProperties: { Allows: false } },
            },
          },
        },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [forbidden('spec', 'validation', 'openAPIV3Schema', 'properties[foo]', 'additionalProperties')],
  },
  {
    name: 'additionalProperties without properties allowed (map[string]string)',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Version: 'version',
        Versions: singleVersionList,
        Conversion: { Strategy: 'None' },
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Validation: {
          OpenAPIV3Schema: {
            Type: 'object',
            Properties: { foo: { Type: 'object', AdditionalProperties: { Allows: true, Schema: { Type: 'string' } } } },
          },
        },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [],
  },
  {
    name: 'per-version fields may not all be set to identical values (top-level field should be used instead)',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Version: 'version',
        Versions: [
          {
            Name: 'version',
            Served: true,
            Storage: true,
            Schema: { OpenAPIV3Schema: validValidationSchema },
            Subresources: {},
            AdditionalPrinterColumns: [{ Name: 'Alpha', Type: 'string', JSONPath: '.spec.alpha' }],
          },
          {
            Name: 'version2',
            Served: true,
            Storage: false,
            Schema: { OpenAPIV3Schema: validValidationSchema },
            Subresources: {},
            AdditionalPrinterColumns: [{ Name: 'Alpha', Type: 'string', JSONPath: '.spec.alpha' }],
          },
        ],
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [invalid('spec', 'versions'), invalid('spec', 'versions'), invalid('spec', 'versions')],
  },
  {
    name: 'x-kubernetes-preserve-unknown-field: false',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Version: 'version',
        Validation: { OpenAPIV3Schema: { XPreserveUnknownFields: false } },
        Versions: [{ Name: 'version', Served: true, Storage: true }],
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [invalid('spec', 'validation', 'openAPIV3Schema', 'x-kubernetes-preserve-unknown-fields')],
  },
  {
    name: 'preserveUnknownFields with unstructural global schema',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Version: 'version',
        Validation: { OpenAPIV3Schema: validUnstructuralValidationSchema },
        Versions: [
          { Name: 'version', Served: true, Storage: true },
          { Name: 'version2', Served: true, Storage: false },
        ],
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [
      required('spec', 'validation', 'openAPIV3Schema', 'properties[spec]', 'type'),
      required('spec', 'validation', 'openAPIV3Schema', 'properties[status]', 'type'),
      required('spec', 'validation', 'openAPIV3Schema', 'items', 'type'),
    ],
  },
  {
    name: 'preserveUnknownFields with unstructural schema in one version',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Version: 'version',
        Versions: [
          { Name: 'version', Served: true, Storage: true, Schema: { OpenAPIV3Schema: validValidationSchema } },
          {
            Name: 'version2',
            Served: true,
            Storage: false,
            Schema: { OpenAPIV3Schema: validUnstructuralValidationSchema },
          },
        ],
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [
      required('spec', 'versions[1]', 'schema', 'openAPIV3Schema', 'properties[spec]', 'type'),
      required('spec', 'versions[1]', 'schema', 'openAPIV3Schema', 'properties[status]', 'type'),
      required('spec', 'versions[1]', 'schema', 'openAPIV3Schema', 'items', 'type'),
    ],
  },
  {
    name: 'preserveUnknownFields with no schema in one version',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Version: 'version',
        Versions: [
          { Name: 'version', Served: true, Storage: true, Schema: { OpenAPIV3Schema: validValidationSchema } },
          { Name: 'version2', Served: true, Storage: false, Schema: { OpenAPIV3Schema: undefined } },
        ],
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [required('spec', 'versions[1]', 'schema', 'openAPIV3Schema')],
  },
  {
    name: 'preserveUnknownFields with no schema at all',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Version: 'version',
        Versions: [
          { Name: 'version', Served: true, Storage: true, Schema: undefined },
          { Name: 'version2', Served: true, Storage: false, Schema: { OpenAPIV3Schema: undefined } },
        ],
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [
      required('spec', 'versions[0]', 'schema', 'openAPIV3Schema'),
      required('spec', 'versions[1]', 'schema', 'openAPIV3Schema'),
    ],
  },
  {
    name: 'schema is required',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Version: 'version',
        Versions: [
          { Name: 'version', Served: true, Storage: true, Schema: undefined },
          { Name: 'version2', Served: true, Storage: false, Schema: { OpenAPIV3Schema: undefined } },
        ],
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [
      required('spec', 'versions[0]', 'schema', 'openAPIV3Schema'),
      required('spec', 'versions[1]', 'schema', 'openAPIV3Schema'),
    ],
  },
  {
    name: 'preserveUnknownFields: true',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Version: 'version',
        Versions: [{ Name: 'version', Served: true, Storage: true }],
        Validation: { OpenAPIV3Schema: { Type: 'object' } },
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        PreserveUnknownFields: true,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [invalid('spec.preserveUnknownFields')],
  },
  {
    name: 'labelSelectorPath outside of .spec and .status',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Version: 'version0',
        Versions: [
          {
            Name: 'version0',
            Served: true,
            Storage: true,
            Subresources: { Scale: { SpecReplicasPath: '.spec.replicas', StatusReplicasPath: '.status.replicas' } },
          },
          {
            Name: 'version1',
            Served: true,
            Storage: false,
            Subresources: {
              Scale: {
                SpecReplicasPath: '.spec.replicas',
                StatusReplicasPath: '.status.replicas',
                LabelSelectorPath: '.status.labelSelector',
              },
            },
          },
          {
            Name: 'version2',
            Served: true,
            Storage: false,
            Subresources: {
              Scale: {
                SpecReplicasPath: '.spec.replicas',
                StatusReplicasPath: '.status.replicas',
                LabelSelectorPath: '.spec.labelSelector',
              },
            },
          },
          {
            Name: 'version3',
            Served: true,
            Storage: false,
            Subresources: {
              Scale: {
                SpecReplicasPath: '.spec.replicas',
                StatusReplicasPath: '.status.replicas',
                LabelSelectorPath: '.labelSelector',
              },
            },
          },
        ],
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        PreserveUnknownFields: false,
        Validation: { OpenAPIV3Schema: { Type: 'object' } },
      },
      Status: { StoredVersions: ['version0'] },
    },
    errors: [invalid('spec', 'versions[3]', 'subresources', 'scale', 'labelSelectorPath')],
  },
  {
    name: 'defaults with enabled feature gate',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Version: 'version',
        Versions: singleVersionList,
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Validation: { OpenAPIV3Schema: { Type: 'object', Properties: { a: { Type: 'number', Default: 42.0 } } } },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
  },
  {
    name: 'x-kubernetes-embedded-resource with pruning and empty properties',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Version: 'version',
        Versions: singleVersionList,
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Validation: {
          OpenAPIV3Schema: {
            Type: 'object',
            XPreserveUnknownFields: true,
            Properties: {
              nil: { Type: 'object', XEmbeddedResource: true, Properties: undefined },
              empty: { Type: 'object', XEmbeddedResource: true, Properties: {} },
            },
          },
        },
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [
      required('spec', 'validation', 'openAPIV3Schema', 'properties[nil]', 'properties'),
      required('spec', 'validation', 'openAPIV3Schema', 'properties[empty]', 'properties'),
    ],
  },
  {
    name: 'x-kubernetes-embedded-resource inside resource meta',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Version: 'version',
        Versions: singleVersionList,
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Validation: {
          OpenAPIV3Schema: {
            Type: 'object',
            Properties: {
              embedded: {
                Type: 'object',
                XEmbeddedResource: true,
                Properties: {
                  metadata: { Type: 'object', XEmbeddedResource: true, XPreserveUnknownFields: true },
                  apiVersion: {
                    Type: 'string',
                    Properties: { foo: { Type: 'object', XEmbeddedResource: true, XPreserveUnknownFields: true } },
                  },
                  kind: {
                    Type: 'string',
                    Properties: { foo: { Type: 'object', XEmbeddedResource: true, XPreserveUnknownFields: true } },
                  },
                },
              },
            },
          },
        },
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [
      forbidden(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[embedded]',
        'properties[metadata]',
        'x-kubernetes-embedded-resource',
      ),
      forbidden(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[embedded]',
        'properties[apiVersion]',
        'properties[foo]',
        'x-kubernetes-embedded-resource',
      ),
      forbidden(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[embedded]',
        'properties[kind]',
        'properties[foo]',
        'x-kubernetes-embedded-resource',
      ),
    ],
  },
  {
    name: 'x-kubernetes-validations access metadata name',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Versions: singleVersionList,
        Subresources: { Status: {} },
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        PreserveUnknownFields: false,
        Validation: {
          OpenAPIV3Schema: {
            Type: 'object',
            XPreserveUnknownFields: true,
            XValidations: [{ Rule: 'size(self.metadata.name) > 3' }],
            Properties: { metadata: { Type: 'object', Properties: { name: { Type: 'string' } } } },
          },
        },
      },
      Status: { StoredVersions: ['version'] },
    },
  },
  {
    name: 'defaults with enabled feature gate, unstructural schema',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Version: 'version',
        Versions: singleVersionList,
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Validation: { OpenAPIV3Schema: { Properties: { a: { Default: 42.0 } } } },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [
      required('spec', 'validation', 'openAPIV3Schema', 'properties[a]', 'type'),
      required('spec', 'validation', 'openAPIV3Schema', 'type'),
    ],
  },
  {
    name: 'defaults with enabled feature gate, structural schema',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Version: 'version',
        Versions: singleVersionList,
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Validation: { OpenAPIV3Schema: { Type: 'object', Properties: { a: { Type: 'number', Default: 42.0 } } } },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [],
  },
  {
    name: 'defaults in value validation with enabled feature gate, structural schema',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Version: 'version',
        Versions: singleVersionList,
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Validation: {
          OpenAPIV3Schema: {
            Type: 'object',
            Properties: {
              a: {
                Type: 'number',
                Not: { Default: 42.0 },
                AnyOf: [{ Default: 42.0 }],
                AllOf: [{ Default: 42.0 }],
                OneOf: [{ Default: 42.0 }],
              },
            },
          },
        },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [
      forbidden('spec', 'validation', 'openAPIV3Schema', 'properties[a]', 'not', 'default'),
      forbidden('spec', 'validation', 'openAPIV3Schema', 'properties[a]', 'allOf[0]', 'default'),
      forbidden('spec', 'validation', 'openAPIV3Schema', 'properties[a]', 'anyOf[0]', 'default'),
      forbidden('spec', 'validation', 'openAPIV3Schema', 'properties[a]', 'oneOf[0]', 'default'),
    ],
  },
  {
    name: 'invalid defaults with enabled feature gate, structural schema',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Version: 'version',
        Versions: singleVersionList,
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Validation: {
          OpenAPIV3Schema: {
            Type: 'object',
            Properties: {
              a: { Type: 'object', Properties: { foo: { Type: 'string' } }, Default: { foo: 'abc', bar: 42.0 } },
              b: { Type: 'object', Properties: { foo: { Type: 'string' } }, Default: { foo: 'abc' } },
              c: { Type: 'object', Properties: { foo: { Type: 'string' } }, Default: { foo: 42 } },
              d: {
                Type: 'object',
                Properties: { good: { Type: 'string', Pattern: 'a' }, bad: { Type: 'string', Pattern: 'b' } },
                Default: { good: 'a', bad: 'a' },
              },
              e: {
                Type: 'object',
                Properties: {
                  preserveUnknownFields: { Type: 'object', Default: { foo: 'abc', bar: 42.0 } },
                  nestedProperties: {
                    Type: 'object',
                    Properties: { foo: { Type: 'string' } },
                    Default: { foo: 'abc', bar: 42.0 },
                  },
                },
                XPreserveUnknownFields: true,
              },
              'embedded-fine': {
                Type: 'object',
                XEmbeddedResource: true,
                Properties: { foo: { Type: 'string' } },
                Default: { foo: 'abc', apiVersion: 'foo/v1', kind: 'v1', metadata: { name: 'foo' } },
              },
              'embedded-preserve': {
                Type: 'object',
                XEmbeddedResource: true,
                XPreserveUnknownFields: true,
                Properties: { foo: { Type: 'string' } },
                Default: { foo: 'abc', apiVersion: 'foo/v1', kind: 'v1', metadata: { name: 'foo' }, bar: 42 },
              },
              'embedded-preserve-unpruned-objectmeta': {
                Type: 'object',
                XEmbeddedResource: true,
                XPreserveUnknownFields: true,
                Properties: { foo: { Type: 'string' } },
                Default: {
                  foo: 'abc',
                  apiVersion: 'foo/v1',
                  kind: 'v1',
                  metadata: { name: 'foo', unspecified: 'bar' },
                  bar: 42,
                },
              },
            },
          },
        },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [
      invalid('spec', 'validation', 'openAPIV3Schema', 'properties[a]', 'default'),
      invalidtypecode('spec', 'validation', 'openAPIV3Schema', 'properties[c]', 'default', 'foo'),
      invalid('spec', 'validation', 'openAPIV3Schema', 'properties[d]', 'default', 'bad'),
      invalid('spec', 'validation', 'openAPIV3Schema', 'properties[e]', 'properties[preserveUnknownFields]', 'default'),
      invalid('spec', 'validation', 'openAPIV3Schema', 'properties[e]', 'properties[nestedProperties]', 'default'),
    ],
  },
  {
    name: 'additionalProperties at resource root',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Version: 'version',
        Versions: singleVersionList,
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Validation: {
          OpenAPIV3Schema: {
            Type: 'object',
            Properties: {
              embedded1: {
                Type: 'object',
                XEmbeddedResource: true,
                AdditionalProperties: { Schema: { Type: 'string' } },
              },
              embedded2: {
                Type: 'object',
                XEmbeddedResource: true,
                XPreserveUnknownFields: true,
                AdditionalProperties: { Schema: { Type: 'string' } },
              },
            },
          },
        },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [
      forbidden('spec', 'validation', 'openAPIV3Schema', 'properties[embedded1]', 'additionalProperties'),
      required('spec', 'validation', 'openAPIV3Schema', 'properties[embedded1]', 'properties'),
      forbidden('spec', 'validation', 'openAPIV3Schema', 'properties[embedded2]', 'additionalProperties'),
    ],
  },
  {
    name: 'v1.15 era tests for metadata defaults',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Version: 'v1',
        Versions: [
          {
            Name: 'v1',
            Served: true,
            Storage: true,
            Schema: {
              OpenAPIV3Schema: {
                Type: 'object',
                Properties: {
                  metadata: { Type: 'object', Default: { name: 'foo' } },
                  embedded: {
                    Type: 'object',
                    XEmbeddedResource: true,
                    Properties: { metadata: { Type: 'object', Default: { name: 'foo', unknown: 42 } } },
                  },
                },
              },
            },
          },
          {
            Name: 'v2',
            Served: true,
            Storage: false,
            Schema: {
              OpenAPIV3Schema: {
                Type: 'object',
                Properties: {
                  metadata: { Type: 'object', Properties: { name: { Type: 'string', Default: 'foo' } } },
                  embedded: {
                    Type: 'object',
                    XEmbeddedResource: true,
                    Properties: {
                      apiVersion: { Type: 'string', Default: 'v1' },
                      kind: { Type: 'string', Default: 'Pod' },
                      metadata: { Type: 'object', Properties: { name: { Type: 'string', Default: 'foo' } } },
                    },
                  },
                },
              },
            },
          },
          {
            Name: 'v3',
            Served: true,
            Storage: false,
            Schema: {
              OpenAPIV3Schema: {
                Type: 'object',
                Properties: {
                  embedded: {
                    Type: 'object',
                    XEmbeddedResource: true,
                    Properties: {
                      apiVersion: { Type: 'string', Default: 'v1' },
                      kind: { Type: 'string', Default: '%' },
                      metadata: { Type: 'object', Default: { labels: { bar: 'x y' } } },
                    },
                  },
                },
              },
            },
          },
          {
            Name: 'v4',
            Served: true,
            Storage: false,
            Schema: {
              OpenAPIV3Schema: {
                Type: 'object',
                Properties: {
                  embedded: {
                    Type: 'object',
                    XEmbeddedResource: true,
                    Properties: {
                      metadata: {
                        Type: 'object',
                        Properties: {
                          name: { Type: 'string', Default: 42 },
                          labels: { Type: 'object', Properties: { bar: { Type: 'string', Default: 42 } } },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        ],
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['v1'] },
    },
    errors: [
      forbidden('spec', 'versions[0]', 'schema', 'openAPIV3Schema', 'properties[metadata]', 'default'),
      forbidden(
        'spec',
        'versions[1]',
        'schema',
        'openAPIV3Schema',
        'properties[metadata]',
        'properties[name]',
        'default',
      ),
      invalid(
        'spec',
        'versions[2]',
        'schema',
        'openAPIV3Schema',
        'properties[embedded]',
        'properties[metadata]',
        'default',
      ),
      invalid(
        'spec',
        'versions[2]',
        'schema',
        'openAPIV3Schema',
        'properties[embedded]',
        'properties[kind]',
        'default',
      ),
      invalid(
        'spec',
        'versions[3]',
        'schema',
        'openAPIV3Schema',
        'properties[embedded]',
        'properties[metadata]',
        'properties[labels]',
        'properties[bar]',
        'default',
      ),
      invalid(
        'spec',
        'versions[3]',
        'schema',
        'openAPIV3Schema',
        'properties[embedded]',
        'properties[metadata]',
        'properties[name]',
        'default',
      ),
    ],
  },
  {
    name: 'default inside additionalSchema',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Version: 'v1',
        Versions: [{ Name: 'v1', Served: true, Storage: true }],
        Validation: {
          OpenAPIV3Schema: {
            Type: 'object',
            Properties: {
              embedded: {
                Type: 'object',
                XEmbeddedResource: true,
                Properties: {
                  metadata: {
                    Type: 'object',
                    Properties: {
                      annotations: {
                        Type: 'object',
                        AdditionalProperties: { Schema: { Type: 'string', Default: 'abc' } },
                      },
                    },
                  },
                },
              },
            },
          },
        },
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['v1'] },
    },
    errors: [
      forbidden(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[embedded]',
        'properties[metadata]',
        'properties[annotations]',
        'additionalProperties',
        'default',
      ),
    ],
  },
  {
    name: 'top-level metadata default',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Version: 'v1',
        Versions: [{ Name: 'v1', Served: true, Storage: true }],
        Validation: {
          OpenAPIV3Schema: { Type: 'object', Properties: { metadata: { Type: 'object', Default: { name: 'foo' } } } },
        },
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['v1'] },
    },
    errors: [forbidden('spec', 'validation', 'openAPIV3Schema', 'properties[metadata]', 'default')],
  },
  {
    name: 'embedded metadata defaults',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Version: 'v1',
        Versions: [{ Name: 'v1', Served: true, Storage: true }],
        Validation: {
          OpenAPIV3Schema: {
            Type: 'object',
            Properties: {
              embedded: {
                Type: 'object',
                XEmbeddedResource: true,
                Properties: { metadata: { Type: 'object', Default: { name: 'foo' } } },
              },
              'allowed-in-object-defaults': {
                Type: 'object',
                XEmbeddedResource: true,
                Properties: {
                  apiVersion: { Type: 'string', Default: 'v1' },
                  kind: { Type: 'string', Default: 'Pod' },
                  metadata: {
                    Type: 'object',
                    Properties: { name: { Type: 'string', Default: 'foo' } },
                    Default: { unknown: 42 },
                  },
                },
              },
              'allowed-object-defaults': {
                Type: 'object',
                Properties: { something: { Type: 'string' } },
                XEmbeddedResource: true,
                Default: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'foo', unknown: 42 } },
              },
              'allowed-spanning-object-defaults': {
                Type: 'object',
                Properties: {
                  embedded: { Type: 'object', XEmbeddedResource: true, Properties: { something: { Type: 'string' } } },
                },
                Default: { embedded: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'foo', unknown: 42 } } },
              },
              'unknown-field-object-defaults': {
                Type: 'object',
                XEmbeddedResource: true,
                Properties: { something: { Type: 'string' } },
                Default: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'foo', unknown: 42 }, unknown: 42 },
              },
              'unknown-field-spanning-object-defaults': {
                Type: 'object',
                Properties: {
                  embedded: { Type: 'object', XEmbeddedResource: true, Properties: { something: { Type: 'string' } } },
                },
                Default: {
                  embedded: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'foo', unknown: 42 }, unknown: 42 },
                  unknown: 42,
                },
              },
              'x-preserve-unknown-fields-unknown-field-object-defaults': {
                Type: 'object',
                XEmbeddedResource: true,
                XPreserveUnknownFields: true,
                Properties: {},
                Default: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'foo', unknown: 42 }, unknown: 42 },
              },
              'x-preserve-unknown-fields-unknown-field-spanning-object-defaults': {
                Type: 'object',
                Properties: {
                  embedded: { Type: 'object', XEmbeddedResource: true, XPreserveUnknownFields: true, Properties: {} },
                },
                Default: {
                  embedded: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'foo', unknown: 42 }, unknown: 42 },
                },
              },
              'x-preserve-unknown-fields-unknown-field-outside': {
                Type: 'object',
                Properties: {
                  embedded: { Type: 'object', XEmbeddedResource: true, XPreserveUnknownFields: true, Properties: {} },
                },
                Default: {
                  embedded: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'foo', unknown: 42 }, unknown: 42 },
                  unknown: 42,
                },
              },
              'wrongly-typed-in-object-defaults': {
                Type: 'object',
                XEmbeddedResource: true,
                Properties: {
                  apiVersion: { Type: 'string', Default: 42 },
                  kind: { Type: 'string', Default: 42 },
                  metadata: {
                    Type: 'object',
                    Properties: {
                      name: { Type: 'string', Default: 42 },
                      annotations: {
                        Type: 'object',
                        AdditionalProperties: { Schema: { Type: 'string' } },
                        Default: 42,
                      },
                    },
                  },
                },
              },
              'wrongly-typed-object-defaults-apiVersion': {
                Type: 'object',
                XEmbeddedResource: true,
                Properties: { something: { Type: 'string' } },
                Default: { apiVersion: 42 },
              },
              'wrongly-typed-object-defaults-kind': {
                Type: 'object',
                XEmbeddedResource: true,
                Properties: { something: { Type: 'string' } },
                Default: { kind: 42 },
              },
              'wrongly-typed-object-defaults-name': {
                Type: 'object',
                XEmbeddedResource: true,
                Properties: { something: { Type: 'string' } },
                Default: { metadata: { name: 42 } },
              },
              'wrongly-typed-object-defaults-labels': {
                Type: 'object',
                XEmbeddedResource: true,
                Properties: { something: { Type: 'string' } },
                Default: { metadata: { labels: { foo: 42 } } },
              },
              'wrongly-typed-object-defaults-annotations': {
                Type: 'object',
                XEmbeddedResource: true,
                Properties: { something: { Type: 'string' } },
                Default: { metadata: { annotations: 42 } },
              },
              'wrongly-typed-object-defaults-metadata': {
                Type: 'object',
                XEmbeddedResource: true,
                Properties: { something: { Type: 'string' } },
                Default: { metadata: 42 },
              },
              'wrongly-typed-spanning-object-defaults-apiVersion': {
                Type: 'object',
                Properties: {
                  embedded: { Type: 'object', XEmbeddedResource: true, Properties: { something: { Type: 'string' } } },
                },
                Default: { embedded: { apiVersion: 42 } },
              },
              'wrongly-typed-spanning-object-defaults-kind': {
                Type: 'object',
                Properties: {
                  embedded: { Type: 'object', XEmbeddedResource: true, Properties: { something: { Type: 'string' } } },
                },
                Default: { embedded: { kind: 42 } },
              },
              'wrongly-typed-spanning-object-defaults-name': {
                Type: 'object',
                Properties: {
                  embedded: { Type: 'object', XEmbeddedResource: true, Properties: { something: { Type: 'string' } } },
                },
                Default: { embedded: { metadata: { name: 42 } } },
              },
              'wrongly-typed-spanning-object-defaults-labels': {
                Type: 'object',
                Properties: {
                  embedded: { Type: 'object', XEmbeddedResource: true, Properties: { something: { Type: 'string' } } },
                },
                Default: { embedded: { metadata: { labels: { foo: 42 } } } },
              },
              'wrongly-typed-spanning-object-defaults-annotations': {
                Type: 'object',
                Properties: {
                  embedded: { Type: 'object', XEmbeddedResource: true, Properties: { something: { Type: 'string' } } },
                },
                Default: { embedded: { metadata: { annotations: 42 } } },
              },
              'wrongly-typed-spanning-object-defaults-metadata': {
                Type: 'object',
                Properties: {
                  embedded: { Type: 'object', XEmbeddedResource: true, Properties: { something: { Type: 'string' } } },
                },
                Default: { embedded: { metadata: 42 } },
              },
              'invalid-in-object-defaults': {
                Type: 'object',
                XEmbeddedResource: true,
                Properties: {
                  kind: { Type: 'string', Default: '%' },
                  metadata: {
                    Type: 'object',
                    Properties: {
                      name: { Type: 'string', Default: '%' },
                      labels: {
                        Type: 'object',
                        AdditionalProperties: { Schema: { Type: 'string' } },
                        Default: { foo: 'x y' },
                      },
                    },
                  },
                },
              },
              'invalid-object-defaults-kind': {
                Type: 'object',
                XEmbeddedResource: true,
                Properties: { something: { Type: 'string' } },
                Default: { apiVersion: 'foo/v1', kind: '%' },
              },
              'invalid-object-defaults-name': {
                Type: 'object',
                XEmbeddedResource: true,
                Properties: { something: { Type: 'string' } },
                Default: { apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: '%' } },
              },
              'invalid-object-defaults-labels': {
                Type: 'object',
                XEmbeddedResource: true,
                Properties: { something: { Type: 'string' } },
                Default: { apiVersion: 'foo/v1', kind: 'Foo', metadata: { labels: { foo: 'x y' } } },
              },
              'invalid-spanning-object-defaults-kind': {
                Type: 'object',
                Properties: {
                  embedded: { Type: 'object', XEmbeddedResource: true, Properties: { something: { Type: 'string' } } },
                },
                Default: { embedded: { apiVersion: 'foo/v1', kind: '%' } },
              },
              'invalid-spanning-object-defaults-name': {
                Type: 'object',
                Properties: {
                  embedded: { Type: 'object', XEmbeddedResource: true, Properties: { something: { Type: 'string' } } },
                },
                Default: { embedded: { apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: '%' } } },
              },
              'invalid-spanning-object-defaults-labels': {
                Type: 'object',
                Properties: {
                  embedded: { Type: 'object', XEmbeddedResource: true, Properties: { something: { Type: 'string' } } },
                },
                Default: { embedded: { apiVersion: 'foo/v1', kind: 'Foo', metadata: { labels: { foo: 'x y' } } } },
              },
              'in-object-defaults-with-valid-constraints': {
                Type: 'object',
                XEmbeddedResource: true,
                Properties: {
                  apiVersion: { Type: 'string', Default: 'foo/v1', Enum: ['foo/v1'] },
                  kind: { Type: 'string', Default: 'Foo', Enum: ['Foo'] },
                  metadata: {
                    Type: 'object',
                    Properties: {
                      name: { Type: 'string', Default: 'foo', Enum: ['foo'] },
                      labels: {
                        Type: 'object',
                        AdditionalProperties: { Schema: { Type: 'string', Enum: ['foo'] } },
                        Default: { foo: 'foo' },
                      },
                    },
                  },
                },
              },
              'metadata-defaults-with-valid-constraints': {
                Type: 'object',
                XEmbeddedResource: true,
                Properties: {
                  metadata: {
                    Type: 'object',
                    Properties: {
                      name: { Type: 'string', Enum: ['foo'] },
                      labels: { Type: 'object', AdditionalProperties: { Schema: { Type: 'string', Enum: ['foo'] } } },
                    },
                    Default: { name: 'foo', labels: { foo: 'foo' } },
                  },
                },
              },
              'object-defaults-with-valid-constraints': {
                Type: 'object',
                XEmbeddedResource: true,
                Properties: {
                  apiVersion: { Type: 'string', Enum: ['foo/v1'] },
                  kind: { Type: 'string', Enum: ['Foo'] },
                  metadata: {
                    Type: 'object',
                    Properties: {
                      name: { Type: 'string', Enum: ['foo'] },
                      labels: { Type: 'object', AdditionalProperties: { Schema: { Type: 'string', Enum: ['foo'] } } },
                    },
                  },
                },
                Default: { apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: 'foo', labels: { foo: 'foo' } } },
              },
              'spanning-defaults-with-valid-constraints': {
                Type: 'object',
                Properties: {
                  embedded: {
                    Type: 'object',
                    XEmbeddedResource: true,
                    Properties: {
                      apiVersion: { Type: 'string', Enum: ['foo/v1'] },
                      kind: { Type: 'string', Enum: ['Foo'] },
                      metadata: {
                        Type: 'object',
                        Properties: {
                          name: { Type: 'string', Enum: ['foo'] },
                          labels: {
                            Type: 'object',
                            AdditionalProperties: { Schema: { Type: 'string', Enum: ['foo'] } },
                          },
                        },
                      },
                    },
                  },
                },
                Default: {
                  embedded: { apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: 'foo', labels: { foo: 'foo' } } },
                },
              },
              'in-object-defaults-with-invalid-constraints': {
                Type: 'object',
                XEmbeddedResource: true,
                Properties: {
                  apiVersion: { Type: 'string', Description: 'BREAK', Default: 'bar/v1', Enum: ['foo/v1'] },
                  kind: { Type: 'string', Default: 'Bar', Enum: ['Foo'] },
                  metadata: {
                    Type: 'object',
                    Properties: {
                      name: { Type: 'string', Default: 'bar', Enum: ['foo'] },
                      labels: {
                        Type: 'object',
                        AdditionalProperties: { Schema: { Type: 'string', Enum: ['foo'] } },
                        Default: { foo: 'bar' },
                      },
                    },
                  },
                },
              },
              'metadata-defaults-with-invalid-constraints-name': {
                Type: 'object',
                XEmbeddedResource: true,
                Properties: {
                  metadata: {
                    Type: 'object',
                    Properties: {
                      name: { Type: 'string', Enum: ['foo'] },
                      labels: { Type: 'object', AdditionalProperties: { Schema: { Type: 'string', Enum: ['foo'] } } },
                    },
                    Default: { name: 'bar' },
                  },
                },
              },
              'metadata-defaults-with-invalid-constraints-labels': {
                Type: 'object',
                XEmbeddedResource: true,
                Properties: {
                  metadata: {
                    Type: 'object',
                    Properties: {
                      name: { Type: 'string', Enum: ['foo'] },
                      labels: { Type: 'object', AdditionalProperties: { Schema: { Type: 'string', Enum: ['foo'] } } },
                    },
                    Default: { name: 'foo', labels: { foo: 'bar' } },
                  },
                },
              },
              'object-defaults-with-invalid-constraints-name': {
                Type: 'object',
                XEmbeddedResource: true,
                Properties: {
                  apiVersion: { Type: 'string', Enum: ['foo/v1'] },
                  kind: { Type: 'string', Enum: ['Foo'] },
                  metadata: {
                    Type: 'object',
                    Properties: {
                      name: { Type: 'string', Enum: ['foo'] },
                      labels: { Type: 'object', AdditionalProperties: { Schema: { Type: 'string', Enum: ['foo'] } } },
                    },
                  },
                },
                Default: { apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: 'bar' } },
              },
              'object-defaults-with-invalid-constraints-labels': {
                Type: 'object',
                XEmbeddedResource: true,
                Properties: {
                  apiVersion: { Type: 'string', Enum: ['foo/v1'] },
                  kind: { Type: 'string', Enum: ['Foo'] },
                  metadata: {
                    Type: 'object',
                    Properties: {
                      name: { Type: 'string', Enum: ['foo'] },
                      labels: { Type: 'object', AdditionalProperties: { Schema: { Type: 'string', Enum: ['foo'] } } },
                    },
                  },
                },
                Default: { apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: 'foo', labels: { foo: 'bar' } } },
              },
              'object-defaults-with-invalid-constraints-apiVersion': {
                Type: 'object',
                XEmbeddedResource: true,
                Properties: {
                  apiVersion: { Type: 'string', Enum: ['foo/v1'] },
                  kind: { Type: 'string', Enum: ['Foo'] },
                  metadata: {
                    Type: 'object',
                    Properties: {
                      name: { Type: 'string', Enum: ['foo'] },
                      labels: { Type: 'object', AdditionalProperties: { Schema: { Type: 'string', Enum: ['foo'] } } },
                    },
                  },
                },
                Default: { apiVersion: 'bar/v1', kind: 'Foo', metadata: { name: 'foo' } },
              },
              'object-defaults-with-invalid-constraints-kind': {
                Type: 'object',
                XEmbeddedResource: true,
                Properties: {
                  apiVersion: { Type: 'string', Enum: ['foo/v1'] },
                  kind: { Type: 'string', Enum: ['Foo'] },
                  metadata: {
                    Type: 'object',
                    Properties: {
                      name: { Type: 'string', Enum: ['foo'] },
                      labels: { Type: 'object', AdditionalProperties: { Schema: { Type: 'string', Enum: ['foo'] } } },
                    },
                  },
                },
                Default: { apiVersion: 'foo/v1', kind: 'Bar', metadata: { name: 'foo' } },
              },
              'spanning-defaults-with-invalid-constraints-name': {
                Type: 'object',
                Properties: {
                  embedded: {
                    Type: 'object',
                    XEmbeddedResource: true,
                    Properties: {
                      apiVersion: { Type: 'string', Enum: ['foo/v1'] },
                      kind: { Type: 'string', Enum: ['Foo'] },
                      metadata: {
                        Type: 'object',
                        Properties: {
                          name: { Type: 'string', Enum: ['foo'] },
                          labels: {
                            Type: 'object',
                            AdditionalProperties: { Schema: { Type: 'string', Enum: ['foo'] } },
                          },
                        },
                      },
                    },
                  },
                },
                Default: {
                  embedded: { apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: 'bar', labels: { foo: 'foo' } } },
                },
              },
              'spanning-defaults-with-invalid-constraints-labels': {
                Type: 'object',
                Properties: {
                  embedded: {
                    Type: 'object',
                    XEmbeddedResource: true,
                    Properties: {
                      apiVersion: { Type: 'string', Enum: ['foo/v1'] },
                      kind: { Type: 'string', Enum: ['Foo'] },
                      metadata: {
                        Type: 'object',
                        Properties: {
                          name: { Type: 'string', Enum: ['foo'] },
                          labels: {
                            Type: 'object',
                            AdditionalProperties: { Schema: { Type: 'string', Enum: ['foo'] } },
                          },
                        },
                      },
                    },
                  },
                },
                Default: {
                  embedded: { apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: 'foo', labels: { foo: 'bar' } } },
                },
              },
              'spanning-defaults-with-invalid-constraints-apiVersion': {
                Type: 'object',
                Properties: {
                  embedded: {
                    Type: 'object',
                    XEmbeddedResource: true,
                    Properties: {
                      apiVersion: { Type: 'string', Enum: ['foo/v1'] },
                      kind: { Type: 'string', Enum: ['Foo'] },
                      metadata: {
                        Type: 'object',
                        Properties: {
                          name: { Type: 'string', Enum: ['foo'] },
                          labels: {
                            Type: 'object',
                            AdditionalProperties: { Schema: { Type: 'string', Enum: ['foo'] } },
                          },
                        },
                      },
                    },
                  },
                },
                Default: {
                  embedded: { apiVersion: 'bar/v1', kind: 'Foo', metadata: { name: 'foo', labels: { foo: 'foo' } } },
                },
              },
              'spanning-defaults-with-invalid-constraints-kind': {
                Type: 'object',
                Properties: {
                  embedded: {
                    Type: 'object',
                    XEmbeddedResource: true,
                    Properties: {
                      apiVersion: { Type: 'string', Enum: ['foo/v1'] },
                      kind: { Type: 'string', Enum: ['Foo'] },
                      metadata: {
                        Type: 'object',
                        Properties: {
                          name: { Type: 'string', Enum: ['foo'] },
                          labels: {
                            Type: 'object',
                            AdditionalProperties: { Schema: { Type: 'string', Enum: ['foo'] } },
                          },
                        },
                      },
                    },
                  },
                },
                Default: {
                  embedded: { apiVersion: 'foo/v1', kind: 'Bar', metadata: { name: 'foo', labels: { foo: 'foo' } } },
                },
              },
              'object-defaults-with-missing-typemeta': {
                Type: 'object',
                XEmbeddedResource: true,
                Properties: {
                  apiVersion: { Type: 'string', Enum: ['foo/v1'] },
                  kind: { Type: 'string', Enum: ['Foo'] },
                },
                Default: { metadata: { name: 'bar' } },
              },
              'spanning-defaults-with-missing-typemeta': {
                Type: 'object',
                Properties: {
                  embedded: {
                    Type: 'object',
                    XEmbeddedResource: true,
                    Properties: {
                      apiVersion: { Type: 'string', Enum: ['foo/v1'] },
                      kind: { Type: 'string', Enum: ['Foo'] },
                    },
                  },
                },
                Default: { embedded: { metadata: { name: 'bar' } } },
              },
            },
          },
        },
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['v1'] },
    },
    errors: [
      invalid('spec', 'validation', 'openAPIV3Schema', 'properties[unknown-field-object-defaults]', 'default'),
      invalid('spec', 'validation', 'openAPIV3Schema', 'properties[unknown-field-spanning-object-defaults]', 'default'),
      invalid(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[x-preserve-unknown-fields-unknown-field-outside]',
        'default',
      ),
      invalid(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[wrongly-typed-in-object-defaults]',
        'properties[kind]',
        'default',
      ),
      invalid(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[wrongly-typed-in-object-defaults]',
        'properties[apiVersion]',
        'default',
      ),
      invalid(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[wrongly-typed-in-object-defaults]',
        'properties[metadata]',
        'properties[name]',
        'default',
      ),
      invalid(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[wrongly-typed-in-object-defaults]',
        'properties[metadata]',
        'properties[annotations]',
        'default',
      ),
      invalid(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[wrongly-typed-object-defaults-metadata]',
        'default',
        'metadata',
      ),
      invalid(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[wrongly-typed-object-defaults-apiVersion]',
        'default',
        'apiVersion',
      ),
      invalid(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[wrongly-typed-object-defaults-kind]',
        'default',
        'kind',
      ),
      invalid(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[wrongly-typed-object-defaults-name]',
        'default',
        'metadata',
      ),
      invalid(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[wrongly-typed-object-defaults-labels]',
        'default',
        'metadata',
      ),
      invalid(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[wrongly-typed-object-defaults-annotations]',
        'default',
        'metadata',
      ),
      invalid(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[wrongly-typed-spanning-object-defaults-metadata]',
        'default',
        'embedded',
        'metadata',
      ),
      invalid(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[wrongly-typed-spanning-object-defaults-apiVersion]',
        'default',
        'embedded',
        'apiVersion',
      ),
      invalid(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[wrongly-typed-spanning-object-defaults-kind]',
        'default',
        'embedded',
        'kind',
      ),
      invalid(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[wrongly-typed-spanning-object-defaults-name]',
        'default',
        'embedded',
        'metadata',
      ),
      invalid(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[wrongly-typed-spanning-object-defaults-labels]',
        'default',
        'embedded',
        'metadata',
      ),
      invalid(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[wrongly-typed-spanning-object-defaults-annotations]',
        'default',
        'embedded',
        'metadata',
      ),
      invalid(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[invalid-in-object-defaults]',
        'properties[metadata]',
        'properties[name]',
        'default',
      ),
      invalid(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[invalid-in-object-defaults]',
        'properties[metadata]',
        'properties[labels]',
        'default',
      ),
      invalid(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[invalid-in-object-defaults]',
        'properties[kind]',
        'default',
      ),
      invalid('spec', 'validation', 'openAPIV3Schema', 'properties[invalid-object-defaults-kind]', 'default', 'kind'),
      invalid(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[invalid-object-defaults-name]',
        'default',
        'metadata',
        'name',
      ),
      invalid(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[invalid-object-defaults-labels]',
        'default',
        'metadata',
        'labels',
      ),
      invalid(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[invalid-spanning-object-defaults-kind]',
        'default',
        'embedded',
        'kind',
      ),
      invalid(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[invalid-spanning-object-defaults-name]',
        'default',
        'embedded',
        'metadata',
        'name',
      ),
      invalid(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[invalid-spanning-object-defaults-labels]',
        'default',
        'embedded',
        'metadata',
        'labels',
      ),
      unsupported(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[in-object-defaults-with-invalid-constraints]',
        'properties[apiVersion]',
        'default',
      ),
      unsupported(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[in-object-defaults-with-invalid-constraints]',
        'properties[kind]',
        'default',
      ),
      unsupported(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[in-object-defaults-with-invalid-constraints]',
        'properties[metadata]',
        'properties[name]',
        'default',
      ),
      unsupported(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[in-object-defaults-with-invalid-constraints]',
        'properties[metadata]',
        'properties[labels]',
        'default',
        'foo',
      ),
      unsupported(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[metadata-defaults-with-invalid-constraints-name]',
        'properties[metadata]',
        'default',
        'name',
      ),
      unsupported(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[metadata-defaults-with-invalid-constraints-labels]',
        'properties[metadata]',
        'default',
        'labels',
        'foo',
      ),
      unsupported(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[object-defaults-with-invalid-constraints-name]',
        'default',
        'metadata',
        'name',
      ),
      unsupported(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[object-defaults-with-invalid-constraints-labels]',
        'default',
        'metadata',
        'labels',
        'foo',
      ),
      unsupported(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[object-defaults-with-invalid-constraints-apiVersion]',
        'default',
        'apiVersion',
      ),
      unsupported(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[object-defaults-with-invalid-constraints-kind]',
        'default',
        'kind',
      ),
      unsupported(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[spanning-defaults-with-invalid-constraints-kind]',
        'default',
        'embedded',
        'kind',
      ),
      unsupported(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[spanning-defaults-with-invalid-constraints-labels]',
        'default',
        'embedded',
        'metadata',
        'labels',
        'foo',
      ),
      unsupported(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[spanning-defaults-with-invalid-constraints-apiVersion]',
        'default',
        'embedded',
        'apiVersion',
      ),
      unsupported(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[spanning-defaults-with-invalid-constraints-name]',
        'default',
        'embedded',
        'metadata',
        'name',
      ),
      required(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[object-defaults-with-missing-typemeta]',
        'default',
        'apiVersion',
      ),
      required(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[object-defaults-with-missing-typemeta]',
        'default',
        'kind',
      ),
      required(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[spanning-defaults-with-missing-typemeta]',
        'default',
        'embedded',
        'apiVersion',
      ),
      required(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[spanning-defaults-with-missing-typemeta]',
        'default',
        'embedded',
        'kind',
      ),
    ],
  },
  {
    name: 'contradicting meta field types',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Version: 'version',
        Versions: singleVersionList,
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Validation: {
          OpenAPIV3Schema: {
            Type: 'object',
            Properties: {
              apiVersion: { Type: 'number' },
              kind: { Type: 'number' },
              metadata: {
                Type: 'number',
                Properties: {
                  name: { Type: 'string', Pattern: 'abc' },
                  generateName: { Type: 'string', Pattern: 'abc' },
                  generation: { Type: 'integer' },
                },
              },
              valid: {
                Type: 'object',
                XEmbeddedResource: true,
                Properties: {
                  apiVersion: { Type: 'string' },
                  kind: { Type: 'string' },
                  metadata: {
                    Type: 'object',
                    Properties: {
                      name: { Type: 'string', Pattern: 'abc' },
                      generateName: { Type: 'string', Pattern: 'abc' },
                      generation: { Type: 'integer', Minimum: 42.0 },
                    },
                  },
                },
              },
              invalid: {
                Type: 'object',
                XEmbeddedResource: true,
                Properties: {
                  apiVersion: { Type: 'number' },
                  kind: { Type: 'number' },
                  metadata: {
                    Type: 'number',
                    Properties: {
                      name: { Type: 'string', Pattern: 'abc' },
                      generateName: { Type: 'string', Pattern: 'abc' },
                      generation: { Type: 'integer', Minimum: 42.0 },
                    },
                  },
                },
              },
              nested: {
                Type: 'object',
                XEmbeddedResource: true,
                Properties: {
                  invalid: {
                    Type: 'object',
                    XEmbeddedResource: true,
                    Properties: {
                      apiVersion: { Type: 'number' },
                      kind: { Type: 'number' },
                      metadata: {
                        Type: 'number',
                        Properties: {
                          name: { Type: 'string', Pattern: 'abc' },
                          generateName: { Type: 'string', Pattern: 'abc' },
                          generation: { Type: 'integer', Minimum: 42.0 },
                        },
                      },
                    },
                  },
                },
              },
              noEmbeddedObject: {
                Type: 'object',
                Properties: { apiVersion: { Type: 'number' }, kind: { Type: 'number' }, metadata: { Type: 'number' } },
              },
            },
          },
        },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [
      forbidden('spec', 'validation', 'openAPIV3Schema', 'properties[metadata]'),
      invalid('spec', 'validation', 'openAPIV3Schema', 'properties[apiVersion]', 'type'),
      invalid('spec', 'validation', 'openAPIV3Schema', 'properties[kind]', 'type'),
      invalid('spec', 'validation', 'openAPIV3Schema', 'properties[metadata]', 'type'),
      invalid('spec', 'validation', 'openAPIV3Schema', 'properties[invalid]', 'properties[apiVersion]', 'type'),
      invalid('spec', 'validation', 'openAPIV3Schema', 'properties[invalid]', 'properties[kind]', 'type'),
      invalid('spec', 'validation', 'openAPIV3Schema', 'properties[invalid]', 'properties[metadata]', 'type'),
      invalid(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[nested]',
        'properties[invalid]',
        'properties[apiVersion]',
        'type',
      ),
      invalid(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[nested]',
        'properties[invalid]',
        'properties[kind]',
        'type',
      ),
      invalid(
        'spec',
        'validation',
        'openAPIV3Schema',
        'properties[nested]',
        'properties[invalid]',
        'properties[metadata]',
        'type',
      ),
    ],
  },
  {
    name: 'x-kubernetes-validations should be forbidden under oneOf/anyOf/allOf/not, structural schema',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Version: 'version',
        Versions: singleVersionList,
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Validation: {
          OpenAPIV3Schema: {
            Type: 'object',
            Properties: {
              a: {
                Type: 'number',
                Not: { XValidations: [{ Rule: 'should be forbidden' }] },
                AnyOf: [{ XValidations: [{ Rule: 'should be forbidden' }] }],
                AllOf: [{ XValidations: [{ Rule: 'should be forbidden' }] }],
                OneOf: [{ XValidations: [{ Rule: 'should be forbidden' }] }],
              },
            },
          },
        },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [
      forbidden('spec', 'validation', 'openAPIV3Schema', 'properties[a]', 'not', 'x-kubernetes-validations'),
      forbidden('spec', 'validation', 'openAPIV3Schema', 'properties[a]', 'allOf[0]', 'x-kubernetes-validations'),
      forbidden('spec', 'validation', 'openAPIV3Schema', 'properties[a]', 'anyOf[0]', 'x-kubernetes-validations'),
      forbidden('spec', 'validation', 'openAPIV3Schema', 'properties[a]', 'oneOf[0]', 'x-kubernetes-validations'),
    ],
  },
  {
    name: 'x-kubernetes-validations should have valid reason and fieldPath',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Version: 'version',
        Versions: singleVersionList,
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Validation: {
          OpenAPIV3Schema: {
            Type: 'object',
            XValidations: [{ Rule: 'self.a > 0', Reason: 'InternalError', FieldPath: '.a' }],
            Properties: {
              a: {
                Type: 'number',
                XValidations: [
                  { Rule: 'true', Reason: 'FieldValueRequired' },
                  { Rule: 'true', Reason: 'FieldValueInvalid' },
                  { Rule: 'true', Reason: 'FieldValueDuplicate' },
                  { Rule: 'true', Reason: 'FieldValueForbidden' },
                ],
              },
            },
          },
        },
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [unsupported('spec', 'validation', 'openAPIV3Schema', 'x-kubernetes-validations[0]', 'reason')],
  },
  {
    name: 'x-kubernetes-validations should have valid fieldPath for array',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Version: 'version',
        Versions: singleVersionList,
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Validation: {
          OpenAPIV3Schema: {
            Type: 'object',
            XValidations: [
              { Rule: 'true', FieldPath: ".foo['b.c']['c\\a']" },
              { Rule: 'true', FieldPath: "['a.c']" },
              { Rule: 'true', FieldPath: '.a.c' },
              { Rule: 'true', FieldPath: '.list[0]' },
              { Rule: 'true', FieldPath: '   ' },
              { Rule: 'true', FieldPath: '.' },
              { Rule: 'true', FieldPath: '..' },
            ],
            Properties: {
              'a.c': { Type: 'number' },
              foo: {
                Type: 'object',
                Properties: { 'b.c': { Type: 'object', Properties: { 'c\u0007': { Type: 'number' } } } },
              },
              list: { Type: 'array', Items: { Schema: { Type: 'object', Properties: { a: { Type: 'number' } } } } },
            },
          },
        },
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [
      invalid('spec', 'validation', 'openAPIV3Schema', 'x-kubernetes-validations[2]', 'fieldPath'),
      invalid('spec', 'validation', 'openAPIV3Schema', 'x-kubernetes-validations[3]', 'fieldPath'),
      invalid('spec', 'validation', 'openAPIV3Schema', 'x-kubernetes-validations[4]', 'fieldPath'),
      invalid('spec', 'validation', 'openAPIV3Schema', 'x-kubernetes-validations[4]', 'fieldPath'),
      invalid('spec', 'validation', 'openAPIV3Schema', 'x-kubernetes-validations[5]', 'fieldPath'),
      invalid('spec', 'validation', 'openAPIV3Schema', 'x-kubernetes-validations[6]', 'fieldPath'),
    ],
  },
  {
    name: 'x-kubernetes-validations have invalid fieldPath',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Version: 'version',
        Versions: singleVersionList,
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Validation: {
          OpenAPIV3Schema: {
            Type: 'object',
            XValidations: [
              { Rule: 'self.a.b.c > 0.0', FieldPath: '.list[0].b' },
              { Rule: 'self.a.b.c > 0.0', FieldPath: '.list[0.b' },
              { Rule: 'self.a.b.c > 0.0', FieldPath: '.list0].b' },
              { Rule: 'self.a.b.c > 0.0', FieldPath: '.a.c' },
              { Rule: 'self.a.b.c > 0.0', FieldPath: '.a.b.d' },
            ],
            Properties: {
              a: { Type: 'object', Properties: { b: { Type: 'object', Properties: { c: { Type: 'number' } } } } },
              list: { Type: 'array', Items: { Schema: { Type: 'object', Properties: { a: { Type: 'number' } } } } },
            },
          },
        },
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [
      invalid('spec', 'validation', 'openAPIV3Schema', 'x-kubernetes-validations[0]', 'fieldPath'),
      invalid('spec', 'validation', 'openAPIV3Schema', 'x-kubernetes-validations[1]', 'fieldPath'),
      invalid('spec', 'validation', 'openAPIV3Schema', 'x-kubernetes-validations[2]', 'fieldPath'),
      invalid('spec', 'validation', 'openAPIV3Schema', 'x-kubernetes-validations[3]', 'fieldPath'),
      invalid('spec', 'validation', 'openAPIV3Schema', 'x-kubernetes-validations[4]', 'fieldPath'),
    ],
  },
  {
    name: 'valid name printer column formats',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Scope: 'Cluster',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        Versions: [{ Name: 'version', Served: true, Storage: true }],
        Validation: {
          OpenAPIV3Schema: {
            Type: 'object',
            Properties: {
              shortName: { Type: 'string', Format: 'k8s-short-name' },
              longName: { Type: 'string', Format: 'k8s-long-name' },
            },
          },
        },
        AdditionalPrinterColumns: [
          { Name: 'primaryName', Type: 'string', JSONPath: '.metadata.name' },
          { Name: 'shortName', Type: 'string', JSONPath: '.spec.shortName' },
          { Name: 'longName', Type: 'string', JSONPath: '.spec.longName' },
        ],
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
  },
]

/** TestSelectableFields */
export const testSelectableFields: GoCase[] = [
  {
    name: 'selectableFields with jsonPaths that do not refer to a field in the schema are invalid',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Version: 'version',
        Versions: [
          {
            Name: 'version',
            Served: true,
            Storage: true,
            Schema: { OpenAPIV3Schema: { Type: 'object', Properties: { foo: { Type: 'string' } }, Required: ['foo'] } },
            SelectableFields: [{ JSONPath: '.foo' }, { JSONPath: '.xyz' }],
          },
          {
            Name: 'version2',
            Served: true,
            Storage: false,
            Schema: {
              OpenAPIV3Schema: { Type: 'object', Properties: { foo: { Type: 'integer' } }, Required: ['foo'] },
            },
            SelectableFields: [{ JSONPath: '.xyz' }, { JSONPath: '.foo' }, { JSONPath: '.abc' }],
          },
        ],
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [
      invalid('spec', 'versions[0]', 'selectableFields[1].jsonPath'),
      invalid('spec', 'versions[1]', 'selectableFields[0].jsonPath'),
      invalid('spec', 'versions[1]', 'selectableFields[2].jsonPath'),
    ],
  },
  {
    name: 'in top level schema, selectableFields with jsonPaths that do not refer to a field in the schema are invalid',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Version: 'version',
        Versions: singleVersionList,
        Validation: {
          OpenAPIV3Schema: {
            Type: 'object',
            Properties: {
              spec: { Type: 'object', Properties: { foo: { Type: 'string' } }, Required: ['foo'] },
              status: { Type: 'object', Properties: { phase: { Type: 'string' } }, Required: ['phase'] },
            },
          },
        },
        SelectableFields: [{ JSONPath: '.spec.foo' }, { JSONPath: '.spec.xyz' }, { JSONPath: '.status.phase' }],
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [invalid('spec', 'selectableFields[1].jsonPath')],
  },
  {
    name: 'selectableFields with jsonPaths that do not refer to fields that are not strings, booleans or integers are invalid',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Version: 'version',
        Versions: [
          {
            Name: 'version',
            Served: true,
            Storage: true,
            Schema: {
              OpenAPIV3Schema: {
                Type: 'object',
                Properties: { foo: { Type: 'string' }, obj: { Type: 'object' } },
                Required: ['foo', 'obj'],
              },
            },
            SelectableFields: [{ JSONPath: '.foo' }, { JSONPath: '.obj' }],
          },
          {
            Name: 'version2',
            Served: true,
            Storage: false,
            Schema: {
              OpenAPIV3Schema: {
                Type: 'object',
                Properties: { foo: { Type: 'integer' }, obj: { Type: 'object' }, bool: { Type: 'boolean' } },
                Required: ['foo', 'obj', 'bool'],
              },
            },
            SelectableFields: [{ JSONPath: '.obj' }, { JSONPath: '.foo' }, { JSONPath: '.bool' }],
          },
        ],
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [
      invalid('spec', 'versions[0]', 'selectableFields[1].jsonPath'),
      invalid('spec', 'versions[1]', 'selectableFields[0].jsonPath'),
    ],
  },
  {
    name: 'selectableFields with duplicate jsonPaths are invalid',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Version: 'version',
        Versions: [
          {
            Name: 'version',
            Served: true,
            Storage: true,
            Schema: { OpenAPIV3Schema: { Type: 'object', Properties: { foo: { Type: 'string' } }, Required: ['foo'] } },
            SelectableFields: [{ JSONPath: '.foo' }, { JSONPath: '.foo' }],
          },
          {
            Name: 'version2',
            Served: true,
            Storage: false,
            Schema: {
              OpenAPIV3Schema: { Type: 'object', Properties: { foo: { Type: 'integer' } }, Required: ['foo'] },
            },
            SelectableFields: [{ JSONPath: '.foo' }, { JSONPath: '.foo' }],
          },
        ],
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [
      duplicate('spec', 'versions[0]', 'selectableFields[1].jsonPath'),
      duplicate('spec', 'versions[1]', 'selectableFields[1].jsonPath'),
    ],
  },
  {
    name: 'too many selectableFields are not allowed',
    resource: {
      ObjectMeta: { Name: 'plural.group.com' },
      Spec: {
        Group: 'group.com',
        Version: 'version',
        Versions: [
          {
            Name: 'version',
            Served: true,
            Storage: true,
            Schema: {
              OpenAPIV3Schema: {
                Type: 'object',
                Properties: {
                  a1: { Type: 'string' },
                  a2: { Type: 'string' },
                  a3: { Type: 'string' },
                  a4: { Type: 'string' },
                  a5: { Type: 'string' },
                  a6: { Type: 'string' },
                  a7: { Type: 'string' },
                  a8: { Type: 'string' },
                  a9: { Type: 'string' },
                },
                Required: ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9'],
              },
            },
            SelectableFields: [
              { JSONPath: '.a1' },
              { JSONPath: '.a2' },
              { JSONPath: '.a3' },
              { JSONPath: '.a4' },
              { JSONPath: '.a5' },
              { JSONPath: '.a6' },
              { JSONPath: '.a7' },
              { JSONPath: '.a8' },
              { JSONPath: '.a9' },
            ],
          },
          {
            Name: 'version2',
            Served: true,
            Storage: false,
            Schema: { OpenAPIV3Schema: { Type: 'object', Properties: { foo: { Type: 'integer' } } } },
          },
        ],
        Scope: 'Namespaced',
        Names: { Plural: 'plural', Singular: 'singular', Kind: 'Plural', ListKind: 'PluralList' },
        PreserveUnknownFields: false,
      },
      Status: { StoredVersions: ['version'] },
    },
    errors: [tooMany('spec', 'versions[0]', 'selectableFields')],
  },
]

/** TestValidateCustomResourceDefinitionValidation */
export const testValidateCustomResourceDefinitionValidation: GoValidationCase[] = [
  { name: 'empty', input: {} },
  { name: 'empty with status', input: {}, statusEnabled: true },
  { name: 'root type without status', input: { OpenAPIV3Schema: { Type: 'string' } }, statusEnabled: false },
  {
    name: 'root type having invalid value, with status',
    input: { OpenAPIV3Schema: { Type: 'string' } },
    statusEnabled: true,
    expectedErrors: [invalid('spec.validation.openAPIV3Schema.type')],
  },
  {
    name: 'non-allowed root field with status',
    input: { OpenAPIV3Schema: { AnyOf: [{ Description: 'First schema' }, { Description: 'Second schema' }] } },
    statusEnabled: true,
    expectedErrors: [invalid('spec.validation.openAPIV3Schema')],
  },
  {
    name: 'all allowed fields at the root of the schema with status',
    input: { OpenAPIV3Schema: validValidationSchema },
    statusEnabled: true,
  },
  {
    name: 'null type',
    input: { OpenAPIV3Schema: { Properties: { null: { Type: 'null' } } } },
    expectedErrors: [forbidden('spec.validation.openAPIV3Schema.properties[null].type')],
  },
  {
    name: 'nullable at the root',
    input: { OpenAPIV3Schema: { Type: 'object', Nullable: true } },
    expectedErrors: [forbidden('spec.validation.openAPIV3Schema.nullable')],
  },
  { name: 'nullable without type', input: { OpenAPIV3Schema: { Properties: { nullable: { Nullable: true } } } } },
  {
    name: 'nullable with types',
    input: {
      OpenAPIV3Schema: {
        Properties: {
          object: { Type: 'object', Nullable: true },
          array: { Type: 'array', Nullable: true },
          number: { Type: 'number', Nullable: true },
          string: { Type: 'string', Nullable: true },
        },
      },
    },
  },
  {
    name: "must be structural, but isn't",
    input: { OpenAPIV3Schema: {} },
    opts: { requireStructuralSchema: true },
    expectedErrors: [required('spec.validation.openAPIV3Schema.type')],
  },
  {
    name: 'must be structural',
    input: { OpenAPIV3Schema: { Type: 'object' } },
    opts: { requireStructuralSchema: true },
  },
  {
    name: 'require valid types, valid',
    input: { OpenAPIV3Schema: { Type: 'object' } },
    opts: { requireValidPropertyType: true, requireStructuralSchema: true },
  },
  {
    name: 'require valid types, invalid',
    input: { OpenAPIV3Schema: { Type: 'null' } },
    opts: { requireValidPropertyType: true, requireStructuralSchema: true },
    expectedErrors: [
      unsupported('spec.validation.openAPIV3Schema.type'),
      forbidden('spec.validation.openAPIV3Schema.type'),
      invalid('spec.validation.openAPIV3Schema.type'),
    ],
  },
  {
    name: 'require valid types, invalid',
    input: { OpenAPIV3Schema: { Type: 'bogus' } },
    opts: { requireValidPropertyType: true, requireStructuralSchema: true },
    expectedErrors: [
      unsupported('spec.validation.openAPIV3Schema.type'),
      invalid('spec.validation.openAPIV3Schema.type'),
    ],
  },
  {
    name: 'invalid type with list type extension set',
    input: { OpenAPIV3Schema: { Type: 'object', XListType: 'set' } },
    expectedErrors: [invalid('spec.validation.openAPIV3Schema.type')],
  },
  {
    name: 'unset type with list type extension set',
    input: { OpenAPIV3Schema: { XListType: 'set' } },
    expectedErrors: [required('spec.validation.openAPIV3Schema.type')],
  },
  {
    name: 'invalid list type extension',
    input: { OpenAPIV3Schema: { Type: 'array', XListType: 'invalid' } },
    expectedErrors: [unsupported('spec.validation.openAPIV3Schema.x-kubernetes-list-type')],
  },
  {
    name: 'invalid list type extension with list map keys extension non-empty',
    input: { OpenAPIV3Schema: { Type: 'array', XListType: 'set', XListMapKeys: ['key'] } },
    expectedErrors: [invalid('spec.validation.openAPIV3Schema.x-kubernetes-list-type')],
  },
  {
    name: 'unset list type extension with list map keys extension non-empty',
    input: { OpenAPIV3Schema: { XListMapKeys: ['key'] } },
    expectedErrors: [required('spec.validation.openAPIV3Schema.x-kubernetes-list-type')],
  },
  {
    name: 'empty list map keys extension with list type extension map',
    input: { OpenAPIV3Schema: { Type: 'array', XListType: 'map' } },
    expectedErrors: [
      required('spec.validation.openAPIV3Schema.x-kubernetes-list-map-keys'),
      required('spec.validation.openAPIV3Schema.items'),
    ],
  },
  {
    name: 'no items schema with list type extension map',
    input: { OpenAPIV3Schema: { Type: 'array', XListType: 'map', XListMapKeys: ['key'] } },
    expectedErrors: [required('spec.validation.openAPIV3Schema.items')],
  },
  {
    name: 'multiple schema items with list type extension map',
    input: {
      OpenAPIV3Schema: {
        Type: 'array',
        XListType: 'map',
        XListMapKeys: ['key'],
        Items: { JSONSchemas: [{ Type: 'string' }, { Type: 'integer' }] },
      },
    },
    expectedErrors: [
      forbidden('spec.validation.openAPIV3Schema.items'),
      invalid('spec.validation.openAPIV3Schema.items'),
    ],
  },
  {
    name: 'non object item with list type extension map',
    input: {
      OpenAPIV3Schema: {
        Type: 'array',
        XListType: 'map',
        XListMapKeys: ['key'],
        Items: { Schema: { Type: 'string' } },
      },
    },
    expectedErrors: [invalid('spec.validation.openAPIV3Schema.items.type')],
  },
  {
    name: 'items with key missing from properties with list type extension map',
    input: {
      OpenAPIV3Schema: {
        Type: 'array',
        XListType: 'map',
        XListMapKeys: ['key'],
        Items: { Schema: { Type: 'object' } },
      },
    },
    expectedErrors: [invalid('spec.validation.openAPIV3Schema.x-kubernetes-list-map-keys')],
  },
  {
    name: 'items with non scalar key property type with list type extension map',
    input: {
      OpenAPIV3Schema: {
        Type: 'array',
        XListType: 'map',
        XListMapKeys: ['key'],
        Items: { Schema: { Type: 'object', Properties: { key: { Type: 'object' } } } },
      },
    },
    expectedErrors: [invalid('spec.validation.openAPIV3Schema.items.properties[key].type')],
  },
  {
    name: 'duplicate map keys with list type extension map',
    input: {
      OpenAPIV3Schema: {
        Type: 'array',
        XListType: 'map',
        XListMapKeys: ['key', 'key'],
        Items: { Schema: { Type: 'object', Properties: { key: { Type: 'string' } } } },
      },
    },
    expectedErrors: [invalid('spec.validation.openAPIV3Schema.x-kubernetes-list-map-keys')],
  },
  {
    name: 'allowed schema with list type extension map',
    input: {
      OpenAPIV3Schema: {
        Type: 'array',
        XListType: 'map',
        XListMapKeys: ['keyA', 'keyB'],
        Items: { Schema: { Type: 'object', Properties: { keyA: { Type: 'string' }, keyB: { Type: 'integer' } } } },
      },
    },
  },
  {
    name: 'allowed list-type atomic',
    input: { OpenAPIV3Schema: { Type: 'array', XListType: 'atomic', Items: { Schema: { Type: 'string' } } } },
  },
  {
    name: 'allowed list-type atomic with non-atomic items',
    input: {
      OpenAPIV3Schema: { Type: 'array', XListType: 'atomic', Items: { Schema: { Type: 'object', Properties: {} } } },
    },
  },
  {
    name: 'allowed list-type set with scalar items',
    input: { OpenAPIV3Schema: { Type: 'array', XListType: 'set', Items: { Schema: { Type: 'string' } } } },
  },
  {
    name: 'allowed list-type set with atomic map items',
    input: {
      OpenAPIV3Schema: {
        Type: 'array',
        XListType: 'set',
        Items: { Schema: { Type: 'object', XMapType: 'atomic', Properties: { foo: { Type: 'string' } } } },
      },
    },
  },
  {
    name: 'invalid list-type set with non-atomic map items',
    input: {
      OpenAPIV3Schema: {
        Type: 'array',
        XListType: 'set',
        Items: { Schema: { Type: 'object', XMapType: 'granular', Properties: { foo: { Type: 'string' } } } },
      },
    },
    opts: { requireAtomicSetType: true },
    expectedErrors: [invalid('spec.validation.openAPIV3Schema.items.x-kubernetes-map-type')],
  },
  {
    name: 'invalid list-type set with unspecified map-type for map items',
    input: {
      OpenAPIV3Schema: {
        Type: 'array',
        XListType: 'set',
        Items: { Schema: { Type: 'object', Properties: { foo: { Type: 'string' } } } },
      },
    },
    opts: { requireAtomicSetType: true },
    expectedErrors: [invalid('spec.validation.openAPIV3Schema.items.x-kubernetes-map-type')],
  },
  {
    name: 'allowed list-type set with atomic list items',
    input: {
      OpenAPIV3Schema: {
        Type: 'array',
        XListType: 'set',
        Items: { Schema: { Type: 'array', XListType: 'atomic', Items: { Schema: { Type: 'string' } } } },
      },
    },
  },
  {
    name: 'allowed list-type set with unspecified list-type in list items',
    input: {
      OpenAPIV3Schema: {
        Type: 'array',
        XListType: 'set',
        Items: { Schema: { Type: 'array', Items: { Schema: { Type: 'string' } } } },
      },
    },
  },
  {
    name: 'invalid list-type set with with non-atomic list items',
    input: {
      OpenAPIV3Schema: {
        Type: 'array',
        XListType: 'set',
        Items: { Schema: { Type: 'array', XListType: 'set', Items: { Schema: { Type: 'string' } } } },
      },
    },
    opts: { requireAtomicSetType: true },
    expectedErrors: [invalid('spec.validation.openAPIV3Schema.items.x-kubernetes-list-type')],
  },
  {
    name: 'invalid type with map type extension (granular)',
    input: { OpenAPIV3Schema: { Type: 'array', XMapType: 'granular' } },
    expectedErrors: [invalid('spec.validation.openAPIV3Schema.type')],
  },
  {
    name: 'unset type with map type extension (granular)',
    input: { OpenAPIV3Schema: { XMapType: 'granular' } },
    expectedErrors: [required('spec.validation.openAPIV3Schema.type')],
  },
  {
    name: 'invalid type with map type extension (atomic)',
    input: { OpenAPIV3Schema: { Type: 'array', XMapType: 'atomic' } },
    expectedErrors: [invalid('spec.validation.openAPIV3Schema.type')],
  },
  {
    name: 'unset type with map type extension (atomic)',
    input: { OpenAPIV3Schema: { XMapType: 'atomic' } },
    expectedErrors: [required('spec.validation.openAPIV3Schema.type')],
  },
  {
    name: 'invalid map type',
    input: { OpenAPIV3Schema: { Type: 'object', XMapType: 'badMapType' } },
    expectedErrors: [unsupported('spec.validation.openAPIV3Schema.x-kubernetes-map-type')],
  },
  {
    name: 'allowed type with map type extension (granular)',
    input: { OpenAPIV3Schema: { Type: 'object', XMapType: 'granular' } },
  },
  {
    name: 'allowed type with map type extension (atomic)',
    input: { OpenAPIV3Schema: { Type: 'object', XMapType: 'atomic' } },
  },
  {
    name: 'invalid map with non-required key and no default',
    input: {
      OpenAPIV3Schema: {
        Type: 'array',
        XListType: 'map',
        XListMapKeys: ['key'],
        Items: { Schema: { Type: 'object', Properties: { key: { Type: 'string' } } } },
      },
    },
    opts: { requireMapListKeysMapSetValidation: true },
    expectedErrors: [required('spec.validation.openAPIV3Schema.items.properties[key].default')],
  },
  {
    name: 'allowed map with required key and no default',
    input: {
      OpenAPIV3Schema: {
        Type: 'array',
        XListType: 'map',
        XListMapKeys: ['key'],
        Items: { Schema: { Type: 'object', Required: ['key'], Properties: { key: { Type: 'string' } } } },
      },
    },
    opts: { requireMapListKeysMapSetValidation: true },
  },
  {
    name: 'allowed map with non-required key and default',
    input: {
      OpenAPIV3Schema: {
        Type: 'array',
        XListType: 'map',
        XListMapKeys: ['key'],
        Items: { Schema: { Type: 'object', Properties: { key: { Type: 'string', Default: 'stuff' } } } },
      },
    },
    opts: { allowDefaults: true, requireMapListKeysMapSetValidation: true },
  },
  {
    name: 'invalid map with nullable key',
    input: {
      OpenAPIV3Schema: {
        Type: 'array',
        XListType: 'map',
        XListMapKeys: ['key'],
        Items: { Schema: { Type: 'object', Properties: { key: { Type: 'string', Nullable: true } } } },
      },
    },
    opts: { requireMapListKeysMapSetValidation: true },
    expectedErrors: [
      required('spec.validation.openAPIV3Schema.items.properties[key].default'),
      forbidden('spec.validation.openAPIV3Schema.items.properties[key].nullable'),
    ],
  },
  {
    name: 'invalid map with nullable items',
    input: {
      OpenAPIV3Schema: {
        Type: 'array',
        XListType: 'map',
        XListMapKeys: ['key'],
        Items: { Schema: { Type: 'object', Nullable: true, Properties: { key: { Type: 'string' } } } },
      },
    },
    opts: { requireMapListKeysMapSetValidation: true },
    expectedErrors: [
      forbidden('spec.validation.openAPIV3Schema.items.nullable'),
      required('spec.validation.openAPIV3Schema.items.properties[key].default'),
    ],
  },
  {
    name: 'valid map with some required, some defaulted, and non-key fields',
    input: {
      OpenAPIV3Schema: {
        Type: 'array',
        XListType: 'map',
        XListMapKeys: ['a'],
        Items: {
          Schema: {
            Type: 'object',
            Required: ['a', 'c'],
            Properties: {
              key: { Type: 'string' },
              a: { Type: 'string' },
              b: { Type: 'string', Default: 'stuff' },
              c: { Type: 'int' },
            },
          },
        },
      },
    },
    opts: { requireMapListKeysMapSetValidation: true },
    expectedErrors: [forbidden('spec.validation.openAPIV3Schema.items.properties[b].default')],
  },
  {
    name: 'invalid set with nullable items',
    input: { OpenAPIV3Schema: { Type: 'array', XListType: 'set', Items: { Schema: { Nullable: true } } } },
    opts: { requireMapListKeysMapSetValidation: true },
    expectedErrors: [forbidden('spec.validation.openAPIV3Schema.items.nullable')],
  },
  {
    name: 'allowed set with non-nullable items',
    input: { OpenAPIV3Schema: { Type: 'array', XListType: 'set', Items: { Schema: { Nullable: false } } } },
    opts: { requireMapListKeysMapSetValidation: true },
  },
  {
    name: 'valid x-kubernetes-validations for scalar element',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          subRoot: {
            Type: 'string',
            XValidations: [
              { Rule: "self.startsWith('s')", Message: "subRoot should start with 's'." },
              { Rule: "self.endsWith('s')", Message: "subRoot should end with 's'." },
            ],
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
  },
  {
    name: 'valid x-kubernetes-validations for object',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        XValidations: [
          {
            Rule: 'self.minReplicas <= self.maxReplicas',
            Message: 'minReplicas should be no greater than maxReplicas',
          },
        ],
        Properties: { minReplicas: { Type: 'integer' }, maxReplicas: { Type: 'integer' } },
      },
    },
    opts: { requireStructuralSchema: true },
  },
  {
    name: 'invalid x-kubernetes-validations with empty rule',
    input: { OpenAPIV3Schema: { Type: 'object', XValidations: [{ Message: 'empty rule' }] } },
    opts: { requireStructuralSchema: true },
    expectedErrors: [required('spec.validation.openAPIV3Schema.x-kubernetes-validations[0].rule')],
  },
  {
    name: 'valid x-kubernetes-validations with empty validators',
    input: { OpenAPIV3Schema: { Type: 'object', XValidations: {} } },
    opts: { requireStructuralSchema: true },
  },
  {
    name: 'invalid rule in x-kubernetes-validations',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          subRoot: {
            Type: 'string',
            XValidations: [
              { Rule: 'self == true', Message: 'subRoot should be true.' },
              { Rule: "self.endsWith('s')", Message: "subRoot should end with 's'." },
            ],
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [invalid('spec.validation.openAPIV3Schema.properties[subRoot].x-kubernetes-validations[0].rule')],
  },
  {
    name: 'valid x-kubernetes-validations for nested object under multiple fields',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        XValidations: [
          {
            Rule: 'self.minReplicas <= self.maxReplicas',
            Message: 'minReplicas should be no greater than maxReplicas.',
          },
        ],
        Properties: {
          minReplicas: { Type: 'integer' },
          maxReplicas: { Type: 'integer' },
          subRule: {
            Type: 'object',
            XValidations: [{ Rule: 'self.isTest == true', Message: 'isTest should be true.' }],
            Properties: { isTest: { Type: 'boolean' } },
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
  },
  {
    name: 'valid x-kubernetes-validations for object of array',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        XValidations: [
          {
            Rule: 'size(self.nestedObj[0]) == 10',
            Message: 'size of first element in nestedObj should be equal to 10',
          },
        ],
        Properties: {
          nestedObj: { Type: 'array', Items: { Schema: { Type: 'array', Items: { Schema: { Type: 'string' } } } } },
        },
      },
    },
    opts: { requireStructuralSchema: true },
  },
  {
    name: 'valid x-kubernetes-validations for array',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Items: {
          Schema: {
            Type: 'array',
            XValidations: [{ Rule: 'size(self) > 0', Message: 'scoped field should contain more than 0 element.' }],
            Items: { Schema: { Type: 'string' } },
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
  },
  {
    name: 'valid x-kubernetes-validations for array of object',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Items: {
          Schema: {
            Type: 'array',
            XValidations: [{ Rule: 'self[0].nestedObj.val > 0', Message: 'val should be greater than 0.' }],
            Items: {
              Schema: {
                Type: 'object',
                Properties: { nestedObj: { Type: 'object', Properties: { val: { Type: 'integer' } } } },
              },
            },
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
  },
  {
    name: 'invalid x-kubernetes-validations for escaping (keywords are invalid field names before v1.30)',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        XValidations: [
          { Rule: 'self.__if__ > 0' },
          { Rule: 'self.__namespace__ > 0' },
          { Rule: 'self.if > 0' },
          { Rule: 'self.namespace > 0' },
          { Rule: 'self.as > 0' },
          { Rule: 'self.break > 0' },
          { Rule: 'self.const > 0' },
          { Rule: 'self.continue > 0' },
          { Rule: 'self.else > 0' },
          { Rule: 'self.for > 0' },
          { Rule: 'self.function > 0' },
          { Rule: 'self.import > 0' },
          { Rule: 'self.let > 0' },
          { Rule: 'self.loop > 0' },
          { Rule: 'self.package > 0' },
          { Rule: 'self.return > 0' },
          { Rule: 'self.var > 0' },
          { Rule: 'self.void > 0' },
          { Rule: 'self.while > 0' },
          { Rule: 'self.self > 0' },
          { Rule: 'self.int > 0' },
          { Rule: 'self.true > 0' },
          { Rule: 'self.false > 0' },
          { Rule: 'self.null > 0' },
          { Rule: 'self.in > 0' },
        ],
        Properties: {
          if: { Type: 'integer' },
          namespace: { Type: 'integer' },
          as: { Type: 'integer' },
          break: { Type: 'integer' },
          const: { Type: 'integer' },
          continue: { Type: 'integer' },
          else: { Type: 'integer' },
          for: { Type: 'integer' },
          function: { Type: 'integer' },
          import: { Type: 'integer' },
          let: { Type: 'integer' },
          loop: { Type: 'integer' },
          package: { Type: 'integer' },
          return: { Type: 'integer' },
          var: { Type: 'integer' },
          void: { Type: 'integer' },
          while: { Type: 'integer' },
          self: { Type: 'integer' },
          int: { Type: 'integer' },
          true: { Type: 'integer' },
          false: { Type: 'integer' },
          null: { Type: 'integer' },
          in: { Type: 'integer' },
        },
      },
    },
    opts: { requireStructuralSchema: true, celEnvironmentSet: environment_MustBaseEnvSet(version_MajorMinor(1, 30)) },
    expectedErrors: [
      invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[2].rule'),
      invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[3].rule'),
      invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[4].rule'),
      invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[5].rule'),
      invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[6].rule'),
      invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[7].rule'),
      invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[8].rule'),
      invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[9].rule'),
      invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[10].rule'),
      invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[11].rule'),
      invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[12].rule'),
      invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[13].rule'),
      invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[14].rule'),
      invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[15].rule'),
      invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[16].rule'),
      invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[17].rule'),
      invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[18].rule'),
      invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[21].rule'),
      invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[22].rule'),
      invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[23].rule'),
      invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[24].rule'),
    ],
  },
  {
    name: 'valid x-kubernetes-validations for escaping',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        XValidations: [
          { Rule: 'self.__if__ > 0' },
          { Rule: 'self.__namespace__ > 0' },
          { Rule: 'self.if > 0' },
          { Rule: 'self.namespace > 0' },
          { Rule: 'self.as > 0' },
          { Rule: 'self.break > 0' },
          { Rule: 'self.const > 0' },
          { Rule: 'self.continue > 0' },
          { Rule: 'self.else > 0' },
          { Rule: 'self.for > 0' },
          { Rule: 'self.function > 0' },
          { Rule: 'self.import > 0' },
          { Rule: 'self.let > 0' },
          { Rule: 'self.loop > 0' },
          { Rule: 'self.package > 0' },
          { Rule: 'self.return > 0' },
          { Rule: 'self.var > 0' },
          { Rule: 'self.void > 0' },
          { Rule: 'self.while > 0' },
          { Rule: 'self.self > 0' },
          { Rule: 'self.int > 0' },
          { Rule: 'self.true > 0' },
          { Rule: 'self.false > 0' },
          { Rule: 'self.null > 0' },
          { Rule: 'self.in > 0' },
        ],
        Properties: {
          if: { Type: 'integer' },
          namespace: { Type: 'integer' },
          as: { Type: 'integer' },
          break: { Type: 'integer' },
          const: { Type: 'integer' },
          continue: { Type: 'integer' },
          else: { Type: 'integer' },
          for: { Type: 'integer' },
          function: { Type: 'integer' },
          import: { Type: 'integer' },
          let: { Type: 'integer' },
          loop: { Type: 'integer' },
          package: { Type: 'integer' },
          return: { Type: 'integer' },
          var: { Type: 'integer' },
          void: { Type: 'integer' },
          while: { Type: 'integer' },
          self: { Type: 'integer' },
          int: { Type: 'integer' },
          true: { Type: 'integer' },
          false: { Type: 'integer' },
          null: { Type: 'integer' },
          in: { Type: 'integer' },
        },
      },
    },
    opts: { requireStructuralSchema: true, celEnvironmentSet: environment_MustBaseEnvSet(version_MajorMinor(1, 31)) },
    expectedErrors: [
      invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[21].rule'),
      invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[22].rule'),
      invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[23].rule'),
      invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[24].rule'),
    ],
  },
  {
    name: 'invalid x-kubernetes-validations for unknown property',
    input: { OpenAPIV3Schema: { Type: 'object', XValidations: [{ Rule: 'self.unknownProp > 0' }] } },
    opts: { requireStructuralSchema: true },
    expectedErrors: [invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[0].rule')],
  },
  {
    name: 'valid default with x-kubernetes-validations',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          embedded: {
            Type: 'object',
            Properties: {
              metadata: {
                Type: 'object',
                XEmbeddedResource: true,
                Properties: {
                  name: { Type: 'string', XValidations: [{ Rule: "self == 'singleton'" }], Default: 'singleton' },
                },
              },
            },
          },
          value: { Type: 'string', XValidations: [{ Rule: "self.startsWith('kube')" }], Default: 'kube-everything' },
          object: {
            Type: 'object',
            Properties: { field1: { Type: 'integer' }, field2: { Type: 'integer' } },
            XValidations: [{ Rule: 'self.field1 < self.field2' }],
            Default: { field1: 1, field2: 2 },
          },
        },
      },
    },
    opts: { requireStructuralSchema: true, allowDefaults: true },
  },
  {
    name: 'invalid default with x-kubernetes-validations',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          embedded: {
            Type: 'object',
            Properties: {
              metadata: {
                Type: 'object',
                XEmbeddedResource: true,
                Properties: {
                  name: { Type: 'string', XValidations: [{ Rule: "self == 'singleton'" }], Default: 'nope' },
                },
              },
            },
          },
          value: { Type: 'string', XValidations: [{ Rule: "self.startsWith('kube')" }], Default: 'nope' },
          object: {
            Type: 'object',
            Properties: { field1: { Type: 'integer' }, field2: { Type: 'integer' } },
            XValidations: [{ Rule: 'self.field1 < self.field2' }],
            Default: { field1: 2, field2: 1 },
          },
        },
      },
    },
    opts: { requireStructuralSchema: true, allowDefaults: true },
    expectedErrors: [
      invalid('spec.validation.openAPIV3Schema.properties[embedded].properties[metadata].properties[name].default'),
      invalid('spec.validation.openAPIV3Schema.properties[value].default'),
      invalid('spec.validation.openAPIV3Schema.properties[object].default'),
    ],
  },
  {
    name: 'rule is empty or not specified',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          value: { Type: 'integer', XValidations: [{ Message: 'something' }, { Rule: '   ', Message: 'something' }] },
        },
      },
    },
    expectedErrors: [
      required('spec.validation.openAPIV3Schema.properties[value].x-kubernetes-validations[0].rule'),
      required('spec.validation.openAPIV3Schema.properties[value].x-kubernetes-validations[1].rule'),
    ],
  },
  {
    name: 'multiline rule with message',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          value: {
            Type: 'integer',
            XValidations: [
              { Rule: 'self >= 0 &&\nself <= 100', Message: 'value must be between 0 and 100 (inclusive)' },
            ],
          },
        },
      },
    },
  },
  {
    name: 'invalid and required messages',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          value: {
            Type: 'integer',
            XValidations: [
              { Rule: 'self >= 0 &&\nself <= 100' },
              { Rule: 'self == 50', Message: 'value requirements:\nmust be >= 0\nmust be <= 100 ' },
              { Rule: 'self == 50', Message: ' ' },
            ],
          },
        },
      },
    },
    expectedErrors: [
      required('spec.validation.openAPIV3Schema.properties[value].x-kubernetes-validations[0].message'),
      invalid('spec.validation.openAPIV3Schema.properties[value].x-kubernetes-validations[1].message'),
      invalid('spec.validation.openAPIV3Schema.properties[value].x-kubernetes-validations[2].message'),
    ],
  },
  {
    name: 'forbid transition rule on element of list of type atomic',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          value: {
            Type: 'array',
            XListType: 'atomic',
            Items: { Schema: { Type: 'string', MaxLength: 10, XValidations: [{ Rule: 'self == oldSelf' }] } },
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [
      invalid('spec.validation.openAPIV3Schema.properties[value].items.x-kubernetes-validations[0].rule'),
    ],
  },
  {
    name: 'forbid transition rule on element of list defaulting to type atomic',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          value: {
            Type: 'array',
            Items: { Schema: { Type: 'string', MaxLength: 10, XValidations: [{ Rule: 'self == oldSelf' }] } },
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [
      invalid('spec.validation.openAPIV3Schema.properties[value].items.x-kubernetes-validations[0].rule'),
    ],
  },
  {
    name: 'allow transition rule on list of type atomic',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          value: {
            Type: 'array',
            MaxItems: 10,
            XListType: 'atomic',
            Items: { Schema: { Type: 'string' } },
            XValidations: [{ Rule: 'self == oldSelf' }],
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
  },
  {
    name: 'allow transition rule on list defaulting to type atomic',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          value: {
            Type: 'array',
            MaxItems: 10,
            Items: { Schema: { Type: 'string', MaxLength: 10 } },
            XValidations: [{ Rule: 'self == oldSelf' }],
          },
        },
      },
    },
  },
  {
    name: 'forbid transition rule on element of list of type set',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          value: {
            Type: 'array',
            MaxItems: 10,
            XListType: 'set',
            Items: { Schema: { Type: 'string', MaxLength: 10, XValidations: [{ Rule: 'self == oldSelf' }] } },
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [
      invalid('spec.validation.openAPIV3Schema.properties[value].items.x-kubernetes-validations[0].rule'),
    ],
  },
  {
    name: 'allow transition rule on list of type set',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          value: {
            Type: 'array',
            MaxItems: 10,
            XListType: 'set',
            Items: { Schema: { Type: 'string', MaxLength: 10 } },
            XValidations: [{ Rule: 'self == oldSelf' }],
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
  },
  {
    name: 'allow transition rule on element of list of type map',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          value: {
            Type: 'array',
            XListType: 'map',
            XListMapKeys: ['name'],
            Items: {
              Schema: {
                Type: 'object',
                XValidations: [{ Rule: 'self == oldSelf' }],
                Required: ['name'],
                Properties: { name: { Type: 'string', MaxLength: 5 } },
              },
            },
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
  },
  {
    name: 'allow transition rule on list of type map',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          value: {
            Type: 'array',
            MaxItems: 10,
            XListType: 'map',
            XListMapKeys: ['name'],
            Items: {
              Schema: { Type: 'object', Required: ['name'], Properties: { name: { Type: 'string', MaxLength: 5 } } },
            },
            XValidations: [{ Rule: 'self == oldSelf' }],
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
  },
  {
    name: 'allow transition rule on element of map of type granular',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          value: {
            Type: 'object',
            XMapType: 'granular',
            Properties: { subfield: { Type: 'string', MaxLength: 10, XValidations: [{ Rule: 'self == oldSelf' }] } },
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
  },
  {
    name: 'forbid transition rule on element of map of unrecognized type',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          value: {
            Type: 'object',
            XMapType: 'future',
            Properties: { subfield: { Type: 'string', MaxLength: 10, XValidations: [{ Rule: 'self == oldSelf' }] } },
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [
      invalid(
        'spec.validation.openAPIV3Schema.properties[value].properties[subfield].x-kubernetes-validations[0].rule',
      ),
      unsupported('spec.validation.openAPIV3Schema.properties[value].x-kubernetes-map-type'),
    ],
  },
  {
    name: 'allow transition rule on element of map defaulting to type granular',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          value: {
            Type: 'object',
            Properties: { subfield: { Type: 'string', MaxLength: 10, XValidations: [{ Rule: 'self == oldSelf' }] } },
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
  },
  {
    name: 'allow transition rule on map of type granular',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: { value: { Type: 'object', XMapType: 'granular', XValidations: [{ Rule: 'self == oldSelf' }] } },
      },
    },
    opts: { requireStructuralSchema: true },
  },
  {
    name: 'allow transition rule on map defaulting to type granular',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: { value: { Type: 'object', XValidations: [{ Rule: 'self == oldSelf' }] } },
      },
    },
    opts: { requireStructuralSchema: true },
  },
  {
    name: 'allow transition rule on element of map of type atomic',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          value: {
            Type: 'object',
            XMapType: 'atomic',
            Properties: { subfield: { Type: 'object', XValidations: [{ Rule: 'self == oldSelf' }] } },
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
  },
  {
    name: 'allow transition rule on map of type atomic',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: { value: { Type: 'object', XMapType: 'atomic', XValidations: [{ Rule: 'self == oldSelf' }] } },
      },
    },
    opts: { requireStructuralSchema: true },
  },
  {
    name: 'forbid double-nested rule with no limit set',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          value: {
            Type: 'array',
            Items: {
              Schema: {
                Type: 'object',
                AdditionalProperties: {
                  Schema: { Type: 'object', Required: ['key'], Properties: { key: { Type: 'string' } } },
                },
              },
            },
            XValidations: [{ Rule: 'self.all(x, x.all(y, x[y].key == x[y].key))' }],
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [
      forbidden('spec.validation.openAPIV3Schema.properties[value].x-kubernetes-validations[0].rule'),
      forbidden('spec.validation.openAPIV3Schema.properties[value].x-kubernetes-validations[0].rule'),
      forbidden('spec.validation.openAPIV3Schema'),
    ],
  },
  {
    name: 'forbid double-nested rule with one limit set',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          value: {
            Type: 'array',
            Items: {
              Schema: {
                Type: 'object',
                AdditionalProperties: {
                  Schema: { Type: 'object', Required: ['key'], Properties: { key: { Type: 'string', MaxLength: 10 } } },
                },
              },
            },
            XValidations: [{ Rule: 'self.all(x, x.all(y, x[y].key == x[y].key))' }],
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [
      forbidden('spec.validation.openAPIV3Schema.properties[value].x-kubernetes-validations[0].rule'),
      forbidden('spec.validation.openAPIV3Schema.properties[value].x-kubernetes-validations[0].rule'),
      forbidden('spec.validation.openAPIV3Schema'),
    ],
  },
  {
    name: 'allow double-nested rule with three limits set',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          value: {
            Type: 'array',
            MaxItems: 10,
            Items: {
              Schema: {
                Type: 'object',
                MaxProperties: 10,
                AdditionalProperties: {
                  Schema: { Type: 'object', Required: ['key'], Properties: { key: { Type: 'string', MaxLength: 10 } } },
                },
              },
            },
            XValidations: [{ Rule: 'self.all(x, x.all(y, x[y].key == x[y].key))' }],
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [],
  },
  {
    name: 'allow double-nested rule with one limit set on outermost array',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          value: {
            Type: 'array',
            MaxItems: 4,
            Items: {
              Schema: {
                Type: 'object',
                AdditionalProperties: {
                  Schema: { Type: 'object', Required: ['key'], Properties: { key: { Type: 'number' } } },
                },
              },
            },
            XValidations: [{ Rule: 'self.all(x, x.all(y, x[y].key == x[y].key))' }],
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [],
  },
  {
    name: 'check for cardinality of 1 under root object',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: { value: { Type: 'integer', XValidations: [{ Rule: 'self < 1024' }] } },
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [],
  },
  {
    name: 'forbid validation rules where cost total exceeds total limit',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          list: {
            Type: 'array',
            MaxItems: 100000,
            Items: {
              Schema: { Type: 'string', MaxLength: 5000, XValidations: [{ Rule: "self.contains('keyword')" }] },
            },
          },
          map: {
            Type: 'object',
            MaxProperties: 1000,
            AdditionalProperties: {
              Allows: true,
              Schema: { Type: 'string', MaxLength: 5000, XValidations: [{ Rule: "self.contains('keyword')" }] },
            },
          },
          field: { Type: 'integer', XValidations: [{ Rule: 'self > 50 && self < 100' }] },
        },
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [
      forbidden('spec.validation.openAPIV3Schema.properties[list].items.x-kubernetes-validations[0].rule'),
      forbidden('spec.validation.openAPIV3Schema.properties[list].items.x-kubernetes-validations[0].rule'),
      forbidden(
        'spec.validation.openAPIV3Schema.properties[map].additionalProperties.x-kubernetes-validations[0].rule',
      ),
      forbidden('spec.validation.openAPIV3Schema'),
    ],
  },
  {
    name: 'skip CEL expression validation when OpenAPIv3 schema is an invalid structural schema',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: { field: { Type: 'integer' } },
        AdditionalProperties: { Schema: { Type: 'string' } },
        XValidations: [{ Rule: 'self.invalidFieldName > 50' }],
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [
      forbidden('spec.validation.openAPIV3Schema.additionalProperties'),
      forbidden('spec.validation.openAPIV3Schema.additionalProperties'),
    ],
  },
  {
    name: 'skip CEL expression validation when OpenAPIv3 schema is an invalid structural schema at level below',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          field: {
            Type: 'object',
            Properties: { field: { Type: 'integer' } },
            AdditionalProperties: { Schema: { Type: 'string' } },
          },
        },
        XValidations: [{ Rule: 'self.invalidFieldName > 50' }],
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [forbidden('spec.validation.openAPIV3Schema.properties[field].additionalProperties')],
  },
  {
    name: 'do not skip when OpenAPIv3 schema is an invalid structural schema in a separate part of the schema tree',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          a: {
            Type: 'object',
            Properties: { field: { Type: 'integer' } },
            AdditionalProperties: { Schema: { Type: 'string' } },
          },
          b: {
            Type: 'object',
            Properties: { field: { Type: 'integer' } },
            XValidations: [{ Rule: 'self.invalidFieldName > 50' }],
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [
      forbidden('spec.validation.openAPIV3Schema.properties[a].additionalProperties'),
      invalid('spec.validation.openAPIV3Schema.properties[b].x-kubernetes-validations[0].rule'),
    ],
  },
  {
    name: 'do not skip CEL expression validation when OpenAPIv3 schema is an invalid structural schema at level above',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          a: {
            Type: 'object',
            Properties: { b: { Type: 'integer', XValidations: [{ Rule: "self == 'abc'" }] } },
            AdditionalProperties: { Schema: { Type: 'string' } },
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [
      forbidden('spec.validation.openAPIV3Schema.properties[a].additionalProperties'),
      invalid('spec.validation.openAPIV3Schema.properties[a].properties[b].x-kubernetes-validations[0].rule'),
    ],
  },
  {
    name: 'x-kubernetes-validations rule validated for escaped property name',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: { 'f/2': { Type: 'string' } },
        XValidations: [{ Rule: 'self.f__slash__2 == 1' }],
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [invalid('spec.validation.openAPIV3Schema.x-kubernetes-validations[0].rule')],
  },
  {
    name: 'x-kubernetes-validations rule validated under array items',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          a: { Type: 'array', Items: { Schema: { Type: 'string', XValidations: [{ Rule: 'self == 1' }] } } },
        },
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [invalid('spec.validation.openAPIV3Schema.properties[a].items.x-kubernetes-validations[0].rule')],
  },
  {
    name: 'x-kubernetes-validations rule validated under array items, parent has rule',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          a: {
            Type: 'array',
            Items: { Schema: { Type: 'string', XValidations: [{ Rule: 'self == 1' }] } },
            XValidations: [{ Rule: '1 == 1' }],
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [invalid('spec.validation.openAPIV3Schema.properties[a].items.x-kubernetes-validations[0].rule')],
  },
  {
    name: 'x-kubernetes-validations rule validated under additionalProperties',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          a: {
            Type: 'object',
            AdditionalProperties: { Schema: { Type: 'string', XValidations: [{ Rule: 'self == 1' }] } },
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [
      invalid('spec.validation.openAPIV3Schema.properties[a].additionalProperties.x-kubernetes-validations[0].rule'),
    ],
  },
  {
    name: 'x-kubernetes-validations rule validated under additionalProperties, parent has rule',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          a: {
            Type: 'object',
            AdditionalProperties: { Schema: { Type: 'string', XValidations: [{ Rule: 'self == 1' }] } },
            XValidations: [{ Rule: '1 == 1' }],
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [
      invalid('spec.validation.openAPIV3Schema.properties[a].additionalProperties.x-kubernetes-validations[0].rule'),
    ],
  },
  {
    name: 'x-kubernetes-validations rule validated under unescaped property name',
    input: {
      OpenAPIV3Schema: { Type: 'object', Properties: { f: { Type: 'string', XValidations: [{ Rule: 'self == 1' }] } } },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [invalid('spec.validation.openAPIV3Schema.properties[f].x-kubernetes-validations[0].rule')],
  },
  {
    name: 'x-kubernetes-validations rule validated under unescaped property name, parent has rule',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: { f: { Type: 'string', XValidations: [{ Rule: 'self == 1' }] } },
        XValidations: [{ Rule: '1 == 1' }],
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [invalid('spec.validation.openAPIV3Schema.properties[f].x-kubernetes-validations[0].rule')],
  },
  {
    name: 'x-kubernetes-validations rule validated under escaped property name',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: { 'f/2': { Type: 'string', XValidations: [{ Rule: 'self == 1' }] } },
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [invalid('spec.validation.openAPIV3Schema.properties[f/2].x-kubernetes-validations[0].rule')],
  },
  {
    name: 'x-kubernetes-validations rule validated under escaped property name, parent has rule',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: { 'f/2': { Type: 'string', XValidations: [{ Rule: 'self == 1' }] } },
        XValidations: [{ Rule: '1 == 1' }],
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [invalid('spec.validation.openAPIV3Schema.properties[f/2].x-kubernetes-validations[0].rule')],
  },
  {
    name: 'x-kubernetes-validations rule validated under unescapable property name',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: { 'f@2': { Type: 'string', XValidations: [{ Rule: 'self == 1' }] } },
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [invalid('spec.validation.openAPIV3Schema.properties[f@2].x-kubernetes-validations[0].rule')],
  },
  {
    name: 'x-kubernetes-validations rule validated under unescapable property name, parent has rule',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: { 'f@2': { Type: 'string', XValidations: [{ Rule: 'self == 1' }] } },
        XValidations: [{ Rule: '1 == 1' }],
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [invalid('spec.validation.openAPIV3Schema.properties[f@2].x-kubernetes-validations[0].rule')],
  },
  {
    name: 'x-kubernetes-validations rule with messageExpression',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          f: {
            Type: 'string',
            XValidations: [
              { Rule: 'self == "string value"', MessageExpression: 'self + " should be \\"string value\\""' },
            ],
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [],
  },
  {
    name: 'x-kubernetes-validations rule allows both message and messageExpression',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          f: {
            Type: 'string',
            XValidations: [
              {
                Rule: 'self == "string value"',
                Message: 'string should be set to "string value"',
                MessageExpression: 'self + " should be \\"string value\\""',
              },
            ],
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [],
  },
  {
    name: 'x-kubernetes-validations rule invalidated by messageExpression syntax error',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          f: { Type: 'string', XValidations: [{ Rule: 'self == "string value"', MessageExpression: 'self + " ' }] },
        },
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [
      invalid('spec.validation.openAPIV3Schema.properties[f].x-kubernetes-validations[0].messageExpression'),
    ],
  },
  {
    name: 'x-kubernetes-validations rule invalidated by messageExpression not returning a string',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          f: { Type: 'string', XValidations: [{ Rule: 'self == "string value"', MessageExpression: '256' }] },
        },
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [
      invalid('spec.validation.openAPIV3Schema.properties[f].x-kubernetes-validations[0].messageExpression'),
    ],
  },
  {
    name: 'x-kubernetes-validations rule invalidated by messageExpression exceeding per-expression estimated cost limit',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          f: {
            Type: 'array',
            Items: { Schema: { Type: 'string' } },
            XValidations: [
              {
                Rule: 'true',
                MessageExpression: 'self[0] + self[1] + self[2] + self[3] + self[4] + self[5] + self[6] + self[7]',
              },
            ],
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [
      forbidden('spec.validation.openAPIV3Schema.properties[f].x-kubernetes-validations[0].messageExpression'),
    ],
  },
  {
    name: 'x-kubernetes-validations rule with lowerAscii check should be within estimated cost limit',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          f: {
            Type: 'array',
            MaxItems: 5,
            Items: { Schema: { Type: 'string', MaxLength: 5 } },
            XValidations: [{ Rule: 'self.all(x, self.exists_one(y, x.lowerAscii() == y.lowerAscii()))' }],
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
  },
  {
    name: 'x-kubernetes-validations rule referencing metadata.name and generateName is within estimated cost limit',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        XValidations: [
          {
            Rule: 'self.metadata.name.contains(self.metadata.name) && self.metadata.generateName.contains(self.metadata.generateName)',
          },
        ],
      },
    },
    opts: { requireStructuralSchema: true },
  },
  {
    name: 'x-kubernetes-validations rule invalidated by messageExpression exceeding per-CRD estimated cost limit',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          f: {
            Type: 'array',
            Items: { Schema: { Type: 'string' } },
            XValidations: [{ Rule: 'true', MessageExpression: 'string(self[0]) + string(self[1]) + string(self[2])' }],
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [
      forbidden('spec.validation.openAPIV3Schema'),
      forbidden('spec.validation.openAPIV3Schema.properties[f].x-kubernetes-validations[0].messageExpression'),
      forbidden('spec.validation.openAPIV3Schema.properties[f].x-kubernetes-validations[0].messageExpression'),
    ],
  },
  {
    name: 'x-kubernetes-validations rule invalidated by messageExpression being only empty spaces',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          f: { Type: 'string', XValidations: [{ Rule: 'self == "string value"', MessageExpression: '     ' }] },
        },
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [
      required('spec.validation.openAPIV3Schema.properties[f].x-kubernetes-validations[0].messageExpression'),
    ],
  },
  {
    name: 'forbid transition rule on element of list of type atomic when optionalOldSelf is set',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          value: {
            Type: 'array',
            XListType: 'atomic',
            Items: {
              Schema: {
                Type: 'string',
                MaxLength: 10,
                XValidations: [{ Rule: 'self == oldSelf.orValue("")', OptionalOldSelf: true }],
              },
            },
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [
      invalid('spec.validation.openAPIV3Schema.properties[value].items.x-kubernetes-validations[0].rule'),
    ],
  },
  {
    name: 'forbid transition rule on element of list defaulting to type atomic when optionalOldSelf is set',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          value: {
            Type: 'array',
            Items: {
              Schema: {
                Type: 'string',
                MaxLength: 10,
                XValidations: [{ Rule: 'self == oldSelf.orValue("")', OptionalOldSelf: true }],
              },
            },
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [
      invalid('spec.validation.openAPIV3Schema.properties[value].items.x-kubernetes-validations[0].rule'),
    ],
  },
  {
    name: 'forbid transition rule on element of list of type set when optionalOldSelf is set',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          value: {
            Type: 'array',
            MaxItems: 10,
            XListType: 'set',
            Items: {
              Schema: {
                Type: 'string',
                MaxLength: 10,
                XValidations: [{ Rule: 'self == oldSelf.orValue("")', OptionalOldSelf: true }],
              },
            },
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [
      invalid('spec.validation.openAPIV3Schema.properties[value].items.x-kubernetes-validations[0].rule'),
    ],
  },
  {
    name: 'forbid transition rule on element of map of unrecognized type when optionalOldSelf is set',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          value: {
            Type: 'object',
            XMapType: 'future',
            Properties: {
              subfield: {
                Type: 'string',
                MaxLength: 10,
                XValidations: [{ Rule: 'self == oldSelf.orValue("")', OptionalOldSelf: true }],
              },
            },
          },
        },
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [
      invalid(
        'spec.validation.openAPIV3Schema.properties[value].properties[subfield].x-kubernetes-validations[0].rule',
      ),
      unsupported('spec.validation.openAPIV3Schema.properties[value].x-kubernetes-map-type'),
    ],
  },
  {
    name: 'forbid setting optionalOldSelf to true if oldSelf is not used',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          value: { Type: 'string', MaxLength: 10, XValidations: [{ Rule: 'self == "foo"', OptionalOldSelf: true }] },
        },
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [
      invalid('spec.validation.openAPIV3Schema.properties[value].x-kubernetes-validations[0].optionalOldSelf'),
    ],
  },
  {
    name: 'forbid setting optionalOldSelf to false if oldSelf is not used',
    input: {
      OpenAPIV3Schema: {
        Type: 'object',
        Properties: {
          value: { Type: 'string', MaxLength: 10, XValidations: [{ Rule: 'self == "foo"', OptionalOldSelf: false }] },
        },
      },
    },
    opts: { requireStructuralSchema: true },
    expectedErrors: [
      invalid('spec.validation.openAPIV3Schema.properties[value].x-kubernetes-validations[0].optionalOldSelf'),
    ],
  },
]
