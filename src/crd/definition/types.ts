// The internal apiextensions types (k8s.io/apiextensions-apiserver pkg/apis/apiextensions types.go,
// types_jsonschema.go) that ValidateCustomResourceDefinition reads, after the v1 object was decoded,
// defaulted and converted. An absent property is Go's zero value (nil pointer, nil slice or map,
// "" or false); decoding leaves zero-valued scalars out so that structural equality of two values
// is Go's apiequality.Semantic.DeepEqual. Empty slices and maps stay: Go tells them from nil.

/** A rule of x-kubernetes-validations (ValidationRule). */
export interface ValidationRule {
  readonly rule?: string
  readonly message?: string
  readonly messageExpression?: string
  readonly reason?: string
  readonly fieldPath?: string
  readonly optionalOldSelf?: boolean
}

/**
 * A schema node (JSONSchemaProps) under its v1 JSON names, so that it reads as the CRD's JSON does.
 * `items` is one schema or a list (JSONSchemaPropsOrArray), `additionalProperties` and
 * `additionalItems` a schema or a bool (JSONSchemaPropsOrBool), a `dependencies` entry a schema or
 * a list of property names (JSONSchemaPropsOrStringArray). `default` and `example` hold the
 * decoded JSON value (present means a non-nil pointer).
 */
export interface JSONSchemaProps {
  readonly id?: string
  readonly $schema?: string
  readonly $ref?: string
  readonly description?: string
  readonly type?: string
  readonly nullable?: boolean
  readonly format?: string
  readonly title?: string
  readonly default?: unknown
  readonly maximum?: number
  readonly exclusiveMaximum?: boolean
  readonly minimum?: number
  readonly exclusiveMinimum?: boolean
  readonly maxLength?: number
  readonly minLength?: number
  readonly pattern?: string
  readonly maxItems?: number
  readonly minItems?: number
  readonly uniqueItems?: boolean
  readonly multipleOf?: number
  readonly enum?: readonly unknown[]
  readonly maxProperties?: number
  readonly minProperties?: number
  readonly required?: readonly string[]
  readonly items?: JSONSchemaProps | readonly JSONSchemaProps[]
  readonly allOf?: readonly JSONSchemaProps[]
  readonly oneOf?: readonly JSONSchemaProps[]
  readonly anyOf?: readonly JSONSchemaProps[]
  readonly not?: JSONSchemaProps
  readonly properties?: Readonly<Record<string, JSONSchemaProps>>
  readonly additionalProperties?: JSONSchemaProps | boolean
  readonly patternProperties?: Readonly<Record<string, JSONSchemaProps>>
  readonly dependencies?: Readonly<Record<string, JSONSchemaProps | readonly string[]>>
  readonly additionalItems?: JSONSchemaProps | boolean
  readonly definitions?: Readonly<Record<string, JSONSchemaProps>>
  readonly externalDocs?: { readonly description?: string; readonly url?: string }
  readonly example?: unknown
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean
  readonly 'x-kubernetes-embedded-resource'?: boolean
  readonly 'x-kubernetes-int-or-string'?: boolean
  readonly 'x-kubernetes-list-map-keys'?: readonly string[]
  readonly 'x-kubernetes-list-type'?: string
  readonly 'x-kubernetes-map-type'?: string
  readonly 'x-kubernetes-validations'?: readonly ValidationRule[]
}

export interface CustomResourceValidation {
  readonly openAPIV3Schema?: JSONSchemaProps
}

export interface CustomResourceSubresourceScale {
  readonly specReplicasPath?: string
  readonly statusReplicasPath?: string
  readonly labelSelectorPath?: string
}

export interface CustomResourceSubresources {
  /** CustomResourceSubresourceStatus is an empty struct: present means enabled. */
  readonly status?: Record<string, never>
  readonly scale?: CustomResourceSubresourceScale
}

export interface CustomResourceColumnDefinition {
  readonly name?: string
  readonly type?: string
  readonly format?: string
  readonly description?: string
  readonly priority?: number
  readonly jsonPath?: string
}

export interface SelectableField {
  readonly jsonPath?: string
}

export interface CustomResourceDefinitionVersion {
  readonly name?: string
  readonly served?: boolean
  readonly storage?: boolean
  readonly deprecated?: boolean
  readonly deprecationWarning?: string
  readonly schema?: CustomResourceValidation
  readonly subresources?: CustomResourceSubresources
  readonly additionalPrinterColumns?: readonly CustomResourceColumnDefinition[]
  readonly selectableFields?: readonly SelectableField[]
}

export interface CustomResourceDefinitionNames {
  readonly plural?: string
  readonly singular?: string
  readonly shortNames?: readonly string[]
  readonly kind?: string
  readonly listKind?: string
  readonly categories?: readonly string[]
}

export interface ServiceReference {
  readonly namespace?: string
  readonly name?: string
  readonly path?: string
  /** An int32 in the internal type (v1 defaults a missing port to 443). */
  readonly port?: number
}

export interface WebhookClientConfig {
  readonly url?: string
  readonly service?: ServiceReference
  /** The bytes as the v1 JSON carries them: base64. */
  readonly caBundle?: string
}

/** The internal CustomResourceConversion: the v1 `webhook` is flattened into it. */
export interface CustomResourceConversion {
  readonly strategy?: string
  readonly webhookClientConfig?: WebhookClientConfig
  readonly conversionReviewVersions?: readonly string[]
}

export interface CustomResourceDefinitionSpec {
  readonly group?: string
  /** The first version's name (internal only). */
  readonly version?: string
  readonly names?: CustomResourceDefinitionNames
  readonly scope?: string
  /** Top-level schema: set by the conversion when every version carries the same one. */
  readonly validation?: CustomResourceValidation
  readonly subresources?: CustomResourceSubresources
  readonly versions?: readonly CustomResourceDefinitionVersion[]
  readonly additionalPrinterColumns?: readonly CustomResourceColumnDefinition[]
  readonly selectableFields?: readonly SelectableField[]
  readonly conversion?: CustomResourceConversion
  /** A pointer in the internal type; the v1 conversion always sets it. */
  readonly preserveUnknownFields?: boolean
}

export interface CustomResourceDefinitionStatus {
  readonly acceptedNames?: CustomResourceDefinitionNames
  readonly storedVersions?: readonly string[]
}

/** The metav1.ObjectMeta fields that create validation reads. */
export interface ObjectMeta {
  readonly name?: string
  readonly generateName?: string
  readonly namespace?: string
  readonly generation?: number
  readonly labels?: Readonly<Record<string, string>>
  readonly annotations?: Readonly<Record<string, string>>
  readonly finalizers?: readonly string[]
}

export interface CustomResourceDefinition {
  readonly metadata?: ObjectMeta
  readonly spec?: CustomResourceDefinitionSpec
  readonly status?: CustomResourceDefinitionStatus
}
