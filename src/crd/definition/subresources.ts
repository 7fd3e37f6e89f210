import { type FieldError, type FieldPath, field } from '../../kube/field.js'
import { marshaledString } from './gojson.js'
import type { CustomResourceColumnDefinition, CustomResourceSubresources } from './types.js'

// ValidateCustomResourceDefinitionSubresources, ValidateCustomResourceColumnDefinition and
// validateSimpleJSONPath (validation.go): the scale subresource's paths and the printer columns.

/** validateSimpleJSONPath: a path in dot notation starting with `.`. */
export function validateSimpleJSONPath(s: string, fldPath: FieldPath): FieldError[] {
  if (s.length === 0) return [field.invalid(fldPath, s, 'must not be empty')]
  if (s[0] !== '.') return [field.invalid(fldPath, s, 'must be a simple json path starting with .')]
  // Go also rejects a split into no parts, which strings.Split never returns
  return []
}

export function validateCustomResourceDefinitionSubresources(
  subresources: CustomResourceSubresources | undefined,
  fldPath: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  const scale = subresources?.scale
  if (scale === undefined) return errs
  const spec = scale.specReplicasPath ?? ''
  if (spec.length === 0) errs.push(field.required(fldPath.child('scale.specReplicasPath'), ''))
  else {
    const pathErrs = validateSimpleJSONPath(spec, fldPath.child('scale.specReplicasPath'))
    if (pathErrs.length > 0) errs.push(...pathErrs)
    else if (!spec.startsWith('.spec.'))
      errs.push(field.invalid(fldPath.child('scale.specReplicasPath'), spec, 'should be a json path under .spec'))
  }
  const status = scale.statusReplicasPath ?? ''
  if (status.length === 0) errs.push(field.required(fldPath.child('scale.statusReplicasPath'), ''))
  else {
    const pathErrs = validateSimpleJSONPath(status, fldPath.child('scale.statusReplicasPath'))
    if (pathErrs.length > 0) errs.push(...pathErrs)
    else if (!status.startsWith('.status.'))
      errs.push(field.invalid(fldPath.child('scale.statusReplicasPath'), status, 'should be a json path under .status'))
  }
  const selector = scale.labelSelectorPath
  if (selector !== undefined && selector.length > 0) {
    const pathErrs = validateSimpleJSONPath(selector, fldPath.child('scale.labelSelectorPath'))
    if (pathErrs.length > 0) errs.push(...pathErrs)
    else if (!selector.startsWith('.spec.') && !selector.startsWith('.status.'))
      // the bad value is a *string: json.Marshal prints it as a JSON string
      errs.push(
        field.invalid(
          fldPath.child('scale.labelSelectorPath'),
          marshaledString(selector),
          'should be a json path under either .spec or .status',
        ),
      )
  }
  return errs
}

const PRINTER_COLUMN_DATATYPES = 'boolean,date,integer,number,string'
const PRINTER_COLUMN_FORMATS = 'byte,date,date-time,double,float,int32,int64,password'

export function validateCustomResourceColumnDefinition(
  col: CustomResourceColumnDefinition,
  fldPath: FieldPath,
): FieldError[] {
  const errs: FieldError[] = []
  if (!col.name) errs.push(field.required(fldPath.child('name'), ''))
  const type = col.type ?? ''
  if (type.length === 0) errs.push(field.required(fldPath.child('type'), `must be one of ${PRINTER_COLUMN_DATATYPES}`))
  else if (!PRINTER_COLUMN_DATATYPES.split(',').includes(type))
    errs.push(field.invalid(fldPath.child('type'), type, `must be one of ${PRINTER_COLUMN_DATATYPES}`))
  const format = col.format ?? ''
  if (format.length > 0 && !PRINTER_COLUMN_FORMATS.split(',').includes(format))
    errs.push(field.invalid(fldPath.child('format'), format, `must be one of ${PRINTER_COLUMN_FORMATS}`))
  const jsonPath = col.jsonPath ?? ''
  if (jsonPath.length === 0) errs.push(field.required(fldPath.child('JSONPath'), ''))
  else errs.push(...validateSimpleJSONPath(jsonPath, fldPath.child('JSONPath')))
  return errs
}
