// Command gen writes src/builtin/types.generated.ts: the Go types of the built-in API kinds that
// kube-apiserver decodes JSON into (k8s.io/api at the release named below, and kube-aggregator's
// apiregistration.k8s.io/v1 at the same release), read by reflection as
// encoding/json (sigs.k8s.io/json) sees them: json names, embedded structs flattened (with the Go
// field names the decoder's error context records), omitempty / omitzero, pointers, the Go type
// names UnmarshalTypeError prints, and the types with their own UnmarshalJSON (Quantity, Time,
// IntOrString, RawExtension, ...). kelp's decoder and defaulters are compiled from this table.
//
// Field defaults (`+default=` markers, zz_generated.defaults.go's literal assignments) are read from
// the release's OpenAPI v3 documents (api/openapi-spec/v3 of k8s.io/kubernetes at the same tag):
// every `default` of a pointer field, and the non-zero ones of the others.
//
//	cd src/builtin/gen && GOFLAGS=-mod=mod go run . $(go env GOMODCACHE)/k8s.io/kubernetes@v1.37.2 > ../types.generated.ts
package main

import (
	"encoding"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	certificatesv1 "k8s.io/api/certificates/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	eventsv1 "k8s.io/api/events/v1"
	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
	networkingv1 "k8s.io/api/networking/v1"
	nodev1 "k8s.io/api/node/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	resourcev1 "k8s.io/api/resource/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	apiregistrationv1 "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1"
)

const release = "k8s.io/api v0.37.2 (Kubernetes v1.37.2)"

var adders = []func(*runtime.Scheme) error{
	admissionregistrationv1.AddToScheme, appsv1.AddToScheme, autoscalingv1.AddToScheme, autoscalingv2.AddToScheme,
	batchv1.AddToScheme, certificatesv1.AddToScheme, coordinationv1.AddToScheme, corev1.AddToScheme,
	discoveryv1.AddToScheme, eventsv1.AddToScheme, flowcontrolv1.AddToScheme, networkingv1.AddToScheme,
	nodev1.AddToScheme, policyv1.AddToScheme, rbacv1.AddToScheme, resourcev1.AddToScheme,
	schedulingv1.AddToScheme, storagev1.AddToScheme,
	// apiregistration.k8s.io: kube-aggregator's types (the aggregator serves them in kube-apiserver)
	apiregistrationv1.AddToScheme,
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// a type node: [kind, goTypeString, ...]
//
//	["s", name]                       struct, fields in the struct table under its id
//	["p", elem]                       pointer
//	["l", goType, elem] / ["b", goType] slice / []byte
//	["m", goType, key, elem]          map
//	["i", goType, bits] ["n", goType, bits] ["f", goType] ["str", goType] ["bool", goType]
//	["u", goType]                     own UnmarshalJSON (the name decides what it accepts)
//	["any"]                           interface{}
type node = []any

var structs = map[string][]any{}

func pkgShort(t reflect.Type) string {
	p := t.PkgPath()
	p = strings.TrimPrefix(p, "k8s.io/api/")
	p = strings.TrimPrefix(p, "k8s.io/apimachinery/pkg/")
	p = strings.TrimPrefix(p, "k8s.io/kube-aggregator/pkg/apis/")
	return p
}

func id(t reflect.Type) string { return pkgShort(t) + "." + t.Name() }

func typeNode(t reflect.Type) any {
	if t.Kind() != reflect.Pointer && (reflect.PointerTo(t).Implements(jsonUnmarshaler) || reflect.PointerTo(t).Implements(textUnmarshaler)) {
		return node{"u", t.String()}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return node{"p", typeNode(t.Elem())}
	case reflect.Struct:
		k := id(t)
		if _, ok := structs[k]; !ok {
			structs[k] = nil
			structs[k] = []any{t.Name(), fields(t)}
		}
		return k
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return node{"b", t.String()}
		}
		return node{"l", t.String(), typeNode(t.Elem())}
	case reflect.Map:
		return node{"m", t.String(), typeNode(t.Key()), typeNode(t.Elem())}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return node{"i", t.String(), t.Bits()}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return node{"n", t.String(), t.Bits()}
	case reflect.Float32, reflect.Float64:
		return node{"f", t.String(), t.Bits()}
	case reflect.String:
		return node{"str", t.String()}
	case reflect.Bool:
		return node{"bool", t.String()}
	case reflect.Interface:
		return node{"any"}
	}
	panic("unsupported type " + t.String())
}

// fields: encoding/json's typeFields, for the shapes k8s.io/api uses (no name conflicts):
// [jsonName, type, flags (1 omitempty, 2 omitzero), embeddedGoNames?]
func fields(t reflect.Type) []any {
	out := []any{}
	var walk func(t reflect.Type, embed []string)
	walk = func(t reflect.Type, embed []string) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			if f.Anonymous {
				ft := f.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if name == "" && ft.Kind() == reflect.Struct {
					walk(ft, append(append([]string{}, embed...), f.Name))
					continue
				}
			} else if !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			flags := 0
			for _, o := range strings.Split(opts, ",") {
				switch o {
				case "omitempty":
					flags |= 1
				case "omitzero":
					flags |= 2
				case "string":
					panic("string option in " + t.String())
				}
			}
			row := []any{name, typeNode(f.Type), flags}
			if len(embed) > 0 {
				row = append(row, embed)
			}
			out = append(out, row)
		}
	}
	walk(t, nil)
	return out
}

func main() {
	s := runtime.NewScheme()
	for _, add := range adders {
		if err := add(s); err != nil {
			panic(err)
		}
	}
	kinds := map[string]any{}
	all := s.AllKnownTypes()
	gvks := make([]schema.GroupVersionKind, 0, len(all))
	for gvk := range all {
		gvks = append(gvks, gvk)
	}
	sort.Slice(gvks, func(i, j int) bool { return gvks[i].String() < gvks[j].String() })
	for _, gvk := range gvks {
		if gvk.Version == runtime.APIVersionInternal || strings.HasSuffix(gvk.Kind, "Options") || gvk.Kind == "WatchEvent" || gvk.Kind == "Status" || gvk.Kind == "APIVersions" || gvk.Kind == "APIGroupList" || gvk.Kind == "APIGroup" || gvk.Kind == "APIResourceList" {
			continue
		}
		kinds[gvk.GroupVersion().String()+"/"+gvk.Kind] = typeNode(all[gvk])
	}
	data, err := json.Marshal(map[string]any{"kinds": kinds, "structs": structs, "defaults": openAPIDefaults(os.Args[1])})
	if err != nil {
		panic(err)
	}
	str := strings.ReplaceAll(strings.ReplaceAll(string(data), `\`, `\\`), `'`, `\'`)
	fmt.Fprintf(os.Stdout, "// Generated by src/builtin/gen (go run .) from %s: do not edit.\n", release)
	fmt.Fprintf(os.Stdout, "// The Go types kube-apiserver decodes built-in objects into; see src/builtin/gotypes.ts.\n")
	fmt.Fprintf(os.Stdout, "export const GO_TYPES_RELEASE = '%s'\n", release)
	fmt.Fprintf(os.Stdout, "export const GO_TYPES_JSON =\n  '%s'\n", str)
}

// openAPIDefaults: struct id -> json field -> default, for the fields of the structs in the table.
func openAPIDefaults(kubernetesDir string) map[string]map[string]any {
	files, err := filepath.Glob(filepath.Join(kubernetesDir, "api/openapi-spec/v3/*.json"))
	if err != nil || len(files) == 0 {
		panic("no OpenAPI v3 documents under " + kubernetesDir)
	}
	type prop struct {
		Default any `json:"default"`
	}
	schemas := map[string]map[string]prop{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			panic(err)
		}
		var doc struct {
			Components struct {
				Schemas map[string]struct {
					Properties map[string]prop `json:"properties"`
				} `json:"schemas"`
			} `json:"components"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			panic(err)
		}
		for name, s := range doc.Components.Schemas {
			schemas[name] = s.Properties
		}
	}
	out := map[string]map[string]any{}
	for id, st := range structs {
		pkg, name, _ := strings.Cut(id, ".")
		prefix := "io.k8s.api."
		if strings.HasPrefix(pkg, "apis/") || strings.HasPrefix(pkg, "util/") || pkg == "runtime" {
			prefix = "io.k8s.apimachinery.pkg."
		} else if strings.HasPrefix(pkg, "apiregistration/") {
			prefix = "io.k8s.kube-aggregator.pkg.apis."
		}
		props := schemas[prefix+strings.ReplaceAll(pkg, "/", ".")+"."+name]
		for _, row := range st[1].([]any) {
			r := row.([]any)
			p, ok := props[r[0].(string)]
			if !ok || p.Default == nil {
				continue
			}
			isPtr := false
			if n, ok := r[1].(node); ok && n[0] == "p" {
				isPtr = true
			}
			if !isPtr && isZero(p.Default) {
				continue
			}
			if out[id] == nil {
				out[id] = map[string]any{}
			}
			out[id][r[0].(string)] = p.Default
		}
	}
	return out
}

func isZero(v any) bool {
	switch v := v.(type) {
	case string:
		return v == ""
	case float64:
		return v == 0
	case bool:
		return !v
	case map[string]any:
		return len(v) == 0
	case []any:
		return len(v) == 0
	}
	return false
}
