// The module of a Go starter bot: its main.go, standard library only. Every Go sample bot shares
// it (`referee new-bot --lang go` writes it beside main.go). Build with `go build -o bot .`.
module bot

go 1.19
