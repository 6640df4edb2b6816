package main

import "context"

// workerCommand is the command line that starts one sharing-suite worker of
// this binary (selfCommand's); the suite appends the workload's flags. It is
// nil when the executable cannot be found, and the sharing suite says so.
func workerCommand() []string {
	cmd, err := selfCommand(context.Background(), []string{"worker"})
	if err != nil {
		return nil
	}
	return cmd.Args
}
