// A Vabanque bot that plays uniformly at random among the legal actions, in Go with its
// standard library only.
//
// It is the smallest complete bot: copy it and replace `choose` with your own strategy.
// The referee talks to the bot in JSON Lines: one JSON object per line on standard input,
// and the bot answers with one JSON object per line on standard output. Standard output
// carries protocol lines only: print any log to standard error (log.Printf does).
// The messages are described in docs/protocol.md, the game's own in docs/protocol-vabanque.md.
//
// Build and run it with, where `referee new-bot --lang go` wrote it (as main.go, beside a go.mod):
//
//	go build -o bot .
//	referee match --game vabanque --bot a=./bot ...
//
// Here in sample-bots/go, beside the other games' bots: go build -o bot vabanque_random.go
package main

import (
	"bufio"
	"encoding/json"
	"log"
	"math/rand"
	"os"
)

// name is the bot's name in the standings.
const name = "go-random"

// message holds the fields of a message from the referee that this bot reads; the others are
// ignored, and so is a field that a message does not have (it stays at its zero value).
type message struct {
	// Type says what the message is: "hello", "match_start", "request", "event", "error",
	// "match_end" or "goodbye".
	Type string `json:"type"`
	// Seed (match_start) seeds the bot's random choices. Seeds are unsigned 64-bit integers:
	// a uint64 reads them exactly.
	Seed uint64 `json:"seed"`
	// ID (request) is echoed in the answer.
	ID uint64 `json:"id"`
	// Phase (request) is what the request asks for: "chip", "card" or "move".
	Phase string `json:"phase"`
	// View (request) is everything the seat may know (tokens, chips, cards, money...). It is
	// kept as raw JSON here: decode it into a struct of the fields your strategy needs.
	View json.RawMessage `json:"view"`
	// Legal (request) lists every legal action, each as raw JSON such as {"table":3}.
	Legal []json.RawMessage `json:"legal"`
}

// hello is the bot's answer to the referee's hello: who it is and which protocol it speaks.
type hello struct {
	Type     string `json:"type"`
	Name     string `json:"name"`
	Protocol int    `json:"protocol"`
}

// action is the bot's answer to a request: the request's id and the action played.
type action struct {
	Type   string          `json:"type"`
	ID     uint64          `json:"id"`
	Action json.RawMessage `json:"action"`
}

// choose picks the action to play. The request's View holds everything the seat may know;
// this bot ignores it and draws among Legal. Your strategy goes here.
func choose(rng *rand.Rand, request *message) json.RawMessage {
	return request.Legal[rng.Intn(len(request.Legal))]
}

// send writes one message as one line and flushes at once: the referee waits for it.
func send(out *bufio.Writer, value interface{}) {
	line, err := json.Marshal(value)
	if err != nil {
		log.Fatalf("cannot encode %v: %v", value, err)
	}
	out.Write(line)
	out.WriteByte('\n')
	if err := out.Flush(); err != nil {
		log.Fatalf("cannot write to the referee: %v", err)
	}
}

func main() {
	log.SetPrefix(name + ": ")         // log writes to standard error, never to the referee
	rng := rand.New(rand.NewSource(0)) // replaced at every match_start: the bot is deterministic
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	for {
		line, err := in.ReadBytes('\n') // one message per line, however long
		if len(line) == 0 && err != nil {
			break // the end of the input (EOF): the referee closed stdin
		}
		var m message
		if json.Unmarshal(line, &m) != nil {
			continue // a blank line, or one this bot cannot read
		}
		switch m.Type {
		case "hello": // the first message: say who we are and which protocol we speak
			send(out, hello{Type: "hello", Name: name, Protocol: 1})
		case "match_start": // a new match: seed our random choices with its seed
			rng = rand.New(rand.NewSource(int64(m.Seed)))
		case "request": // our turn: answer with an action, echoing the request's id
			send(out, action{Type: "action", ID: m.ID, Action: choose(rng, &m)})
		case "goodbye": // no more matches
			return
		}
		// Anything else (event, error, match_end, or a type added later) is ignored.
	}
}
