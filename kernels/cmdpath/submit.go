package cmdpath

// SubmitAll makes commands launch commands and has the calling goroutine
// submit each (submit gets its 128 bytes of parameters): directly (via
// "direct"), or taken from a channel ("chan") or a mutex ring ("mutex") that
// a producer goroutine fills.
func SubmitAll(via string, commands int, submit func(params *[128]byte)) {
	if via == "direct" {
		for i := 0; i < commands; i++ {
			c := mediumCmd.make()
			submit(&c.params)
		}
		return
	}
	q := newQueue[launchCmd](1000, via == "mutex")
	go func() {
		for i := 0; i < commands; i++ {
			q.send(mediumCmd.make())
		}
		q.close()
	}()
	for c, ok := q.recv(); ok; c, ok = q.recv() {
		submit(&c.params)
	}
}
