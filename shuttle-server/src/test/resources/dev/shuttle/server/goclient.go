// A Go net/http client against a Shuttle server, for GoClientTest: it prints one line per check, which the test
// compares. Standard library only; run with `go run goclient.go -base http://127.0.0.1:PORT`.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"os"
	"strings"
)

func main() {
	base := flag.String("base", "", "the server's base URL")
	flag.Parse()
	client := &http.Client{}
	reused := 0
	trace := &httptrace.ClientTrace{GotConn: func(info httptrace.GotConnInfo) {
		if info.Reused {
			reused++
		}
	}}
	get := func(path string, header map[string]string) *http.Response {
		req, err := http.NewRequest("GET", *base+path, nil)
		if err != nil {
			fail(err)
		}
		for k, v := range header {
			req.Header.Set(k, v)
		}
		req = req.WithContext(httptrace.WithClientTrace(req.Context(), trace))
		res, err := client.Do(req)
		if err != nil {
			fail(err)
		}
		return res
	}
	// A routed path value, decoded.
	res := get("/items/a%20b", nil)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	fmt.Printf("item %d %s\n", res.StatusCode, body)
	// A file: Range, then a conditional GET with its ETag.
	res = get("/files/hello.txt", map[string]string{"Range": "bytes=0-4"})
	body, _ = io.ReadAll(res.Body)
	res.Body.Close()
	etag := res.Header.Get("ETag")
	fmt.Printf("range %d %s %s\n", res.StatusCode, res.Header.Get("Content-Range"), body)
	res = get("/files/hello.txt", map[string]string{"If-None-Match": etag})
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	fmt.Printf("revalidate %d\n", res.StatusCode)
	// gzip: Go's transport asks for it and decompresses what it asked for.
	res = get("/text", nil)
	body, _ = io.ReadAll(res.Body)
	res.Body.Close()
	fmt.Printf("gzip uncompressed=%v length=%d\n", res.Uncompressed, len(body))
	// Server-sent events, read as they come.
	res = get("/events", nil)
	reader := bufio.NewReader(res.Body)
	line, _ := reader.ReadString('\n')
	fmt.Printf("event %s\n", strings.TrimSpace(line))
	res.Body.Close()
	fmt.Printf("reused %d\n", reused)
}

func fail(err error) {
	fmt.Println("error:", err)
	os.Exit(1)
}
