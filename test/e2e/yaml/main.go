// kubectl-yaml: how kubectl reads manifest files, for kelp's YAML differential test
// (yaml.e2e.test.ts). It reads a JSON array of file texts on stdin and writes, for each, the documents
// cli-runtime's StreamVisitor would send: apimachinery's YAMLOrJSONDecoder (4096-byte sniff), each
// document trimmed, empty ones and `null` skipped, reading stopped at the first error. Values are
// written with every number as {"n": text} and every string as {"s": text}, so that the test compares
// number texts exactly (JSON.parse would round integers past 2^53).
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"

	"k8s.io/apimachinery/pkg/util/yaml"
)

type file struct {
	Docs  []any  `json:"docs"`
	Error string `json:"error,omitempty"`
}

func tag(v any) any {
	switch x := v.(type) {
	case json.Number:
		return map[string]string{"n": x.String()}
	case string:
		return map[string]string{"s": x}
	case []any:
		for i := range x {
			x[i] = tag(x[i])
		}
		return x
	case map[string]any:
		for k := range x {
			x[k] = tag(x[k])
		}
		return x
	}
	return v
}

func read(text string) file {
	out := file{Docs: []any{}}
	d := yaml.NewYAMLOrJSONDecoder(strings.NewReader(text), 4096)
	for {
		var raw json.RawMessage
		if err := d.Decode(&raw); err != nil {
			if !errors.Is(err, io.EOF) {
				out.Error = err.Error()
			}
			return out
		}
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 || string(raw) == "null" {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			out.Error = err.Error()
			return out
		}
		out.Docs = append(out.Docs, tag(v))
	}
}

func main() {
	var texts []string
	if err := json.NewDecoder(os.Stdin).Decode(&texts); err != nil {
		panic(err)
	}
	out := make([]file, len(texts))
	for i, t := range texts {
		out[i] = read(t)
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		panic(err)
	}
}
