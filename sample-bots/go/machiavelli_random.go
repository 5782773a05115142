// A Machiavelli bot that lays the sets and runs it can form from its own hand, else draws, in Go
// with its standard library only.
//
// It is the smallest complete bot: copy it and replace `choose` with your own strategy.
// Machiavelli lists no legal actions: a play is the whole new table, which the bot builds
// itself. This one keeps the table's melds as they are and adds melds made of its own cards,
// in a random order (a stronger bot rearranges the table: sample-bots/python/
// machiavelli_rearranger.py).
// The referee talks to the bot in JSON Lines: one JSON object per line on standard input,
// and the bot answers with one JSON object per line on standard output. Standard output
// carries protocol lines only: print any log to standard error (log.Printf does).
// The messages are described in docs/protocol.md, the game's own in
// docs/protocol-machiavelli.md.
//
// Build and run it with, where `referee new-bot --lang go` wrote it (as main.go, beside a go.mod):
//
//	go build -o bot .
//	referee match --game machiavelli --bot a=./bot ...
//
// Here in sample-bots/go, beside the other games' bots: go build -o bot machiavelli_random.go
package main

import (
	"bufio"
	"encoding/json"
	"log"
	"math/rand"
	"os"
	"sort"
)

// name is the bot's name in the standings.
const name = "go-random"

// ranks are the ranks of the cards, 1 (the ace) to 13 (the king); suits are their suits.
var ranks = []string{"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"}
var suits = []string{"C", "D", "H", "S"}

// joker is the joker, which stands for any card.
const joker = "JK"

// message holds the fields of a message from the referee that this bot reads; the others are
// ignored, and so is a field that a message does not have (it stays at its zero value).
type message struct {
	// Type says what the message is: "hello", "match_start", "request", "event", "error",
	// "match_end" or "goodbye".
	Type string `json:"type"`
	// Seed (match_start) seeds the bot's random choices. Seeds are unsigned 64-bit integers:
	// a uint64 reads them exactly.
	Seed uint64 `json:"seed"`
	// Options (hello and match_start) are the game's options; a missing one has its default.
	Options struct {
		// JokersPerMeld is how many jokers one meld may hold (1 unless set).
		JokersPerMeld *int `json:"jokers_per_meld"`
	} `json:"options"`
	// ID (request) is echoed in the answer.
	ID uint64 `json:"id"`
	// View (request) is everything the seat may know. This bot reads two of its fields; the
	// others (the size of the stock and of every hand, the points so far...) are in
	// docs/protocol-machiavelli.md: add them here as your strategy needs them.
	View struct {
		// Hand is the seat's cards, sorted, such as ["AC", "3C", "10S", "JK"].
		Hand []string `json:"hand"`
		// Table is the melds on the table, each a list of cards.
		Table [][]string `json:"table"`
	} `json:"view"`
}

// hello is the bot's answer to the referee's hello: who it is and which protocol it speaks.
type hello struct {
	Type     string `json:"type"`
	Name     string `json:"name"`
	Protocol int    `json:"protocol"`
}

// action is the bot's answer to a request: the request's id and the action played, either
// {"play": the new table} or {"draw": true}.
type action struct {
	Type   string                 `json:"type"`
	ID     uint64                 `json:"id"`
	Action map[string]interface{} `json:"action"`
}

// rank is the rank of a card such as "10S": 1 (the ace) to 13 (the king), 0 for the joker.
// Its suit is its last character.
func rank(card string) int {
	for i, r := range ranks {
		if card[:len(card)-1] == r {
			return i + 1
		}
	}
	return 0
}

// isMeld says whether cards is a valid meld: a set (3 or 4 cards of one rank, all suits
// different) or a run (3 to 13 cards of one suit in consecutive ranks, the ace low as in A-2-3
// or high as in Q-K-A, never both). A joker stands for any card: at most maxJokers in a meld,
// and never a meld of jokers only.
func isMeld(cards []string, maxJokers int) bool {
	var naturals []string
	for _, c := range cards {
		if c != joker {
			naturals = append(naturals, c)
		}
	}
	jokers := len(cards) - len(naturals)
	if len(cards) < 3 || len(naturals) == 0 || jokers > maxJokers {
		return false
	}
	suitsSeen := map[byte]bool{}
	ranksSeen := map[int]bool{}
	for _, c := range naturals {
		suitsSeen[c[len(c)-1]] = true
		ranksSeen[rank(c)] = true
	}
	if len(cards) <= 4 && len(ranksSeen) == 1 && len(suitsSeen) == len(naturals) {
		return true // a set; its jokers stand for the missing suits
	}
	if len(suitsSeen) != 1 || len(cards) > 13 {
		return false
	}
	for _, ace := range []int{1, 14} { // the ace as the low end, then as the high end
		values := map[int]bool{}
		low, high := 14, 1
		for _, c := range naturals {
			v := rank(c)
			if v == 1 {
				v = ace
			}
			values[v] = true
			if v < low {
				low = v
			}
			if v > high {
				high = v
			}
		}
		// No rank twice, and the jokers can fill the gaps: the ranks span at most len(cards).
		if len(values) == len(naturals) && high-low < len(cards) {
			return true
		}
	}
	return false
}

// meldsIn lists melds made of cards of hand: each set of one rank, each longest run of one
// suit, then pairs that a joker makes a meld. They may share cards: choose lays what it can.
func meldsIn(hand []string, maxJokers int) [][]string {
	held := map[string]bool{}
	for _, c := range hand {
		held[c] = true
	}
	var melds [][]string
	for _, r := range ranks { // sets: one card of each suit that the hand holds in rank r
		var sameRank []string
		for _, s := range suits {
			if held[r+s] {
				sameRank = append(sameRank, r+s)
			}
		}
		if len(sameRank) >= 3 {
			melds = append(melds, sameRank)
		}
	}
	// Runs: consecutive ranks of suit s, with the ace again after the king.
	runRanks := append(append([]string{}, ranks...), "A")
	for _, s := range suits {
		var streak []string
		for _, r := range runRanks {
			if held[r+s] && len(streak) < 13 { // A..K and A again would be 14 cards
				streak = append(streak, r+s)
				continue
			}
			if len(streak) >= 3 { // the streak ends here
				melds = append(melds, streak)
			}
			streak = nil
			if held[r+s] {
				streak = []string{r + s}
			}
		}
		if len(streak) >= 3 {
			melds = append(melds, streak)
		}
	}
	if held[joker] && maxJokers >= 1 { // a joker completes two cards into a meld
		var naturals []string
		for c := range held {
			if c != joker {
				naturals = append(naturals, c)
			}
		}
		sort.Strings(naturals) // a map's order is random: sort, to be deterministic
		for i, a := range naturals {
			for _, b := range naturals[i+1:] {
				if meld := []string{a, b, joker}; isMeld(meld, maxJokers) {
					melds = append(melds, meld)
				}
			}
		}
	}
	return melds
}

// hasJoker says whether a meld holds a joker.
func hasJoker(meld []string) bool {
	for _, c := range meld {
		if c == joker {
			return true
		}
	}
	return false
}

// choose picks the action: {"play": the new table} or {"draw": true}. The request's View holds
// everything the seat may know: its sorted Hand and the Table (a list of melds), and more. A
// play must hold every card of the table, at least one card from the hand, and nothing else, in
// valid melds. Your strategy goes here.
func choose(rng *rand.Rand, request *message, maxJokers int) map[string]interface{} {
	hand := map[string]int{} // how many of each card the hand holds (there are two decks)
	for _, c := range request.View.Hand {
		hand[c]++
	}
	melds := meldsIn(request.View.Hand, maxJokers)
	// Any order; melds without a joker first, to keep the jokers for later.
	rng.Shuffle(len(melds), func(i, j int) { melds[i], melds[j] = melds[j], melds[i] })
	sort.SliceStable(melds, func(i, j int) bool { return !hasJoker(melds[i]) && hasJoker(melds[j]) })
	table := append([][]string{}, request.View.Table...) // the table's melds as they were
	laid := 0
	for _, meld := range melds {
		// Lay it if its cards are still in the hand (an earlier meld may have used them).
		need := map[string]int{}
		for _, c := range meld {
			need[c]++
		}
		inHand := true
		for c, n := range need {
			inHand = inHand && hand[c] >= n
		}
		if inHand && isMeld(meld, maxJokers) {
			for _, c := range meld {
				hand[c]--
			}
			table = append(table, meld) // plus ours
			laid++
		}
	}
	if laid > 0 {
		return map[string]interface{}{"play": table}
	}
	return map[string]interface{}{"draw": true}
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
	maxJokers := 1                     // jokers allowed in one meld: jokers_per_meld, 1 unless set
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
		case "match_start": // a new match: seed our random choices, read the options
			rng = rand.New(rand.NewSource(int64(m.Seed)))
			maxJokers = 1
			if m.Options.JokersPerMeld != nil {
				maxJokers = *m.Options.JokersPerMeld
			}
		case "request": // our turn: answer with an action, echoing the request's id
			send(out, action{Type: "action", ID: m.ID, Action: choose(rng, &m, maxJokers)})
		case "goodbye": // no more matches
			return
		}
		// Anything else (event, error, match_end, or a type added later) is ignored.
	}
}
