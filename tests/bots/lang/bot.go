// A Vabanque bot in Go (standard library only): answers every request with the first legal
// action. The tests build it with `go build` and run `referee check` on it, with and without the
// sandbox, to show that a Go program starts and plays under the referee's system-call filter.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

// The fields of a message this bot reads; the rest of it is ignored.
type message struct {
	Type  string            `json:"type"`
	ID    json.RawMessage   `json:"id"`
	Legal []json.RawMessage `json:"legal"`
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<24)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		var m message
		if json.Unmarshal(in.Bytes(), &m) != nil {
			continue
		}
		switch m.Type {
		case "hello":
			fmt.Fprintln(out, `{"type":"hello","name":"go-first","protocol":1}`)
		case "request":
			fmt.Fprintf(out, "{\"type\":\"action\",\"id\":%s,\"action\":%s}\n", m.ID, m.Legal[0])
		case "goodbye":
			out.Flush()
			return
		}
		out.Flush()
	}
}
