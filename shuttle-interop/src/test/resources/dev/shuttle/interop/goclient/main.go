// Command earlyclose is Go's net/http client closing response bodies unread, for Shuttle's interop tests.
//
// It GETs one URL over TLS with ALPN h2 (the certificate is not verified), closing each body with
// resp.Body.Close() before reading any of it, one request at a time or from several goroutines; a concurrent run
// makes one request alone first, so the connection exists before the goroutines start. It prints one JSON line:
// requests made, failures (an error, a status other than 200, a protocol other than HTTP/2), the first failure,
// and the connections the transport dialled (httptrace's GotConn with Reused false).
package main

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptrace"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

type result struct {
	Requests       int64  `json:"requests"`
	Failures       int64  `json:"failures"`
	FirstFailure   string `json:"firstFailure,omitempty"`
	NewConnections int64  `json:"newConnections"`
}

func main() {
	url := flag.String("url", "", "the https URL to GET")
	workers := flag.Int("workers", 1, "goroutines making requests at once")
	perWorker := flag.Int("per-worker", 100, "requests per goroutine")
	flag.Parse()

	transport := &http.Transport{
		TLSClientConfig:   &tls.Config{InsecureSkipVerify: true},
		ForceAttemptHTTP2: true,
	}
	client := &http.Client{Transport: transport, Timeout: 20 * time.Second}

	var res result
	var failureOnce sync.Once
	fail := func(why string) {
		atomic.AddInt64(&res.Failures, 1)
		failureOnce.Do(func() { res.FirstFailure = why })
	}
	trace := &httptrace.ClientTrace{GotConn: func(info httptrace.GotConnInfo) {
		if !info.Reused {
			atomic.AddInt64(&res.NewConnections, 1)
		}
	}}
	ctx := httptrace.WithClientTrace(context.Background(), trace)
	one := func() {
		atomic.AddInt64(&res.Requests, 1)
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, *url, nil)
		if err != nil {
			fail(err.Error())
			return
		}
		resp, err := client.Do(req)
		if err != nil {
			fail(err.Error())
			return
		}
		resp.Body.Close() // unread
		if resp.StatusCode != http.StatusOK || resp.ProtoMajor != 2 {
			fail(fmt.Sprintf("%s %s", resp.Proto, resp.Status))
		}
	}

	if *workers <= 1 {
		for i := 0; i < *perWorker; i++ {
			one()
		}
	} else {
		one()
		var wg sync.WaitGroup
		for w := 0; w < *workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < *perWorker; i++ {
					one()
				}
			}()
		}
		wg.Wait()
	}
	transport.CloseIdleConnections()
	if err := json.NewEncoder(os.Stdout).Encode(res); err != nil {
		os.Exit(1)
	}
}
