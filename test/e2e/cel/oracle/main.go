// cel-oracle: Kubernetes 1.37's CEL, for kelp's CEL differential (test/e2e/cel/cel.e2e.test.ts). The
// environment is k8s.io/apiserver's own: environment.MustBaseEnvSet at the default compatibility version
// (binary 1.37 → 1.36, pkg/cel/environment/base.go), NewExpressions or StoredExpressions, extended with the
// variables the validating admission policy compiler declares as dyn (pkg/admission/plugin/cel/compile.go
// createEnvForOpts: object, oldObject, params). Programs are made as compile.go makes them (the base env's
// program options: cel.CostLimit(PerCallLimit), cel.CostTracking(&library.CostEstimator{}), and
// cel.InterruptCheckFrequency), evaluated as condition.go does (ContextEval, EvalDetails.ActualCost). The
// estimate is env.EstimateCost with library.CostEstimator and no SizeEstimator (a dyn variable is unbounded).
//
// Input: JSON lines {"id", "expr", "vars": {name: JSON}, "env": "new"|"stored", "runs"?: n}. Output: one
// JSON line each: {"id", "compile": "" | error text, "stage": "compile"|"program", "estimate": [min, max]
// (decimal strings), "value": tagged value, "error": text, "cost": decimal string, "runs", "alternatives"}.
// Values are tagged so that the two sides compare exactly: {"int": "5"}, {"uint": "5"}, {"double": "1.5" |
// "NaN" | "Infinity" | "-Infinity" | "-0"}, {"string": s}, {"bytes": base64}, {"bool": b}, {"null": null},
// {"list": [...]}, {"map": [[k, v], ...]} (in key order), {"duration": nanoseconds}, {"timestamp":
// "seconds.nanos9"}, {"type": name}, {"optional": null | value}, {"opaque": type name} for the Kubernetes
// library values. A program with a comprehension is evaluated up to "runs" times (8 unless asked; Go
// ranges over maps in random order), each on bindings decoded afresh as a request's are: "runs" says how
// many evaluations were made, "alternatives" lists the outcomes ({"value", "error", "cost"}) other than the
// first that they gave.
package main

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"k8s.io/apimachinery/pkg/util/version"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/apiserver/pkg/cel/library"
)

type input struct {
	ID   int                        `json:"id"`
	Expr string                     `json:"expr"`
	Vars map[string]json.RawMessage `json:"vars"`
	Env  string                     `json:"env"`
	// Runs: how many evaluations a program with a comprehension gets (default 8)
	Runs int `json:"runs"`
}

type output struct {
	ID       int        `json:"id"`
	Compile  string     `json:"compile"`
	Stage    string     `json:"stage,omitempty"`
	Estimate *[2]string `json:"estimate,omitempty"`
	Value    any        `json:"value,omitempty"`
	Error    *string    `json:"error,omitempty"`
	Cost     string     `json:"cost,omitempty"`
	Panic    string     `json:"panic,omitempty"`
	// Runs: the evaluations made (when more than one); Alternatives: the outcomes other than the
	// first they gave (Go's random map order)
	Runs         int          `json:"runs,omitempty"`
	Alternatives []evaluation `json:"alternatives,omitempty"`
}

// evaluation is one evaluation's outcome: a value or an error, and its cost.
type evaluation struct {
	Value any     `json:"value,omitempty"`
	Error *string `json:"error,omitempty"`
	Cost  string  `json:"cost,omitempty"`
}

// Go ranges over maps in a random order, so a comprehension over a map (a JSON object) can fail on a
// different entry, stop early at a different entry (exists), or build its list in another order from
// one request to the next: the apiserver hands cel-go the map[string]interface{} it decoded from each
// request's body (k8s.io/apiserver pkg/admission/conversion.go LazyObject.CELValue for a custom resource),
// a new map each time. A program with a comprehension is evaluated up to `runs` times (8 unless the input
// asks for more; within runBudget each), each on a new decoding (activation), and every distinct outcome
// is reported: kelp agrees when its outcome is one of them.
const (
	defaultRuns = 8
	runBudget   = 25 * time.Millisecond
)

// hasComprehension: whether the checked expression has a comprehension (a macro) anywhere.
func hasComprehension(a *cel.Ast) bool {
	found := false
	ast.PreOrderVisit(a.NativeRep().Expr(), ast.NewExprVisitor(func(e ast.Expr) {
		if e.Kind() == ast.ComprehensionKind {
			found = true
		}
	}))
	return found
}

// activation decodes the bindings as a request's object is decoded: afresh, into new Go maps. Each new map
// has its own hash seed (internal/runtime/maps), and a map of more than 8 entries (a table) lays its entries
// out by that seed, so the orders Go ranges over them in differ from one request to the next; a map of up to 8
// entries (one group) holds them in insertion order (the JSON text's) and is ranged from a random slot, so
// its orders are the rotations of that order whatever the seed. Decoding once and evaluating again would
// keep one seed and one table, a narrower set of orders than the apiserver gives across requests.
func activation(vars map[string]json.RawMessage) (map[string]any, error) {
	a := map[string]any{}
	for _, name := range variables {
		a[name] = nil
	}
	for name, raw := range vars {
		v, err := native(raw)
		if err != nil {
			return nil, fmt.Errorf("binding %s: %w", name, err)
		}
		a[name] = v
	}
	return a, nil
}

// evaluate runs the program once, on bindings decoded for this evaluation.
func evaluate(prog cel.Program, vars map[string]json.RawMessage) (ev evaluation) {
	a, err := activation(vars)
	if err != nil {
		text := err.Error()
		ev.Error = &text
		return ev
	}
	val, details, err := prog.ContextEval(context.Background(), a)
	if details != nil && details.ActualCost() != nil {
		ev.Cost = strconv.FormatUint(*details.ActualCost(), 10)
	}
	if err != nil {
		text := err.Error()
		ev.Error = &text
		return ev
	}
	ev.Value = tag(val)
	return ev
}

// key identifies an outcome among the repeated evaluations.
func (ev evaluation) key() string {
	b, _ := json.Marshal(ev)
	return string(b)
}

// variables: those compile.go declares as dyn for a validating admission policy
var variables = []string{"object", "oldObject", "params"}

func envs() map[string]*cel.Env {
	base := environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion())
	opts := []cel.EnvOption{}
	for _, v := range variables {
		opts = append(opts, cel.Variable(v, cel.DynType))
	}
	set, err := base.Extend(environment.VersionedOptions{IntroducedVersion: version.MajorMinor(1, 0), EnvOptions: opts})
	if err != nil {
		panic(err)
	}
	out := map[string]*cel.Env{}
	for name, t := range map[string]environment.Type{"new": environment.NewExpressions, "stored": environment.StoredExpressions} {
		env, err := set.Env(t)
		if err != nil {
			panic(err)
		}
		out[name] = env
	}
	return out
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func double(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0 && math.Signbit(f):
		return "-0"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// tag is a value in the tagged form the test compares (see the top of the file).
func tag(v ref.Val) any {
	switch x := v.(type) {
	case types.Int:
		return map[string]any{"int": strconv.FormatInt(int64(x), 10)}
	case types.Uint:
		return map[string]any{"uint": strconv.FormatUint(uint64(x), 10)}
	case types.Double:
		return map[string]any{"double": double(float64(x))}
	case types.String:
		return map[string]any{"string": string(x)}
	case types.Bytes:
		return map[string]any{"bytes": base64.StdEncoding.EncodeToString([]byte(x))}
	case types.Bool:
		return map[string]any{"bool": bool(x)}
	case types.Null:
		return map[string]any{"null": nil}
	case types.Duration:
		return map[string]any{"duration": strconv.FormatInt(int64(x.Duration), 10)}
	case types.Timestamp:
		return map[string]any{"timestamp": fmt.Sprintf("%d.%09d", x.Unix(), x.Nanosecond())}
	case *types.Optional:
		if !x.HasValue() {
			return map[string]any{"optional": nil}
		}
		return map[string]any{"optional": tag(x.GetValue())}
	case *types.Type:
		return map[string]any{"type": x.TypeName()}
	case traits.Mapper:
		pairs := [][2]any{}
		for it := x.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			pairs = append(pairs, [2]any{tag(k), tag(x.Get(k))})
		}
		// in key order, so that two evaluations giving one map write it alike
		sort.Slice(pairs, func(i, j int) bool { return jsonText(pairs[i][0]) < jsonText(pairs[j][0]) })
		return map[string]any{"map": pairs}
	case traits.Lister:
		items := []any{}
		for it := x.Iterator(); it.HasNext() == types.True; {
			items = append(items, tag(it.Next()))
		}
		return map[string]any{"list": items}
	}
	return map[string]any{"opaque": v.Type().TypeName()}
}

// native is a binding as the apiserver holds a decoded JSON object: integers int64, other numbers float64.
func native(raw json.RawMessage) (any, error) {
	d := json.NewDecoder(strings.NewReader(string(raw)))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return numbers(v), nil
}

func numbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case []any:
		for i := range x {
			x[i] = numbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = numbers(x[k])
		}
	}
	return v
}

func run(envs map[string]*cel.Env, in input) (out output) {
	out.ID = in.ID
	defer func() {
		if r := recover(); r != nil {
			out.Panic = fmt.Sprint(r)
		}
	}()
	env := envs[in.Env]
	if env == nil {
		env = envs["new"]
	}
	checked, iss := env.Compile(in.Expr)
	if iss != nil && iss.Err() != nil {
		out.Compile, out.Stage = iss.Err().Error(), "compile"
		return out
	}
	est, err := env.EstimateCost(checked, &library.CostEstimator{})
	if err == nil {
		out.Estimate = &[2]string{strconv.FormatUint(est.Min, 10), strconv.FormatUint(est.Max, 10)}
	}
	prog, err := env.Program(checked, cel.InterruptCheckFrequency(celconfig.CheckFrequency))
	if err != nil {
		out.Compile, out.Stage = err.Error(), "program"
		return out
	}
	if _, err := activation(in.Vars); err != nil {
		out.Panic = err.Error()
		return out
	}
	start := time.Now()
	first := evaluate(prog, in.Vars)
	out.Value, out.Error, out.Cost = first.Value, first.Error, first.Cost
	if !hasComprehension(checked) {
		return out
	}
	runs := in.Runs
	if runs <= 0 {
		runs = defaultRuns
	}
	seen := map[string]bool{first.key(): true}
	out.Runs = 1
	for ; out.Runs < runs && time.Since(start) < time.Duration(runs)*runBudget; out.Runs++ {
		ev := evaluate(prog, in.Vars)
		if k := ev.key(); !seen[k] {
			seen[k] = true
			out.Alternatives = append(out.Alternatives, ev)
		}
	}
	return out
}

func main() {
	e := envs()
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<28)
	w := bufio.NewWriterSize(os.Stdout, 1<<16)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for in.Scan() {
		line := in.Bytes()
		if len(line) == 0 {
			continue
		}
		var x input
		if err := json.Unmarshal(line, &x); err != nil {
			fmt.Fprintf(os.Stderr, "cel-oracle: bad input line: %v\n", err)
			os.Exit(2)
		}
		if err := enc.Encode(run(e, x)); err != nil {
			panic(err)
		}
		// a line ends a batch when the caller asks for it (flush on every line keeps the pipe simple)
		w.Flush()
	}
	w.Flush()
}
