package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/perfgate/perfgate/kernels"
)

func TestJudgePreRun(t *testing.T) {
	busy := kernels.PreRunFinding{Msg: "other processes are using the GPU (4242 python3)", Blocking: true}
	advice := kernels.PreRunFinding{Msg: "compute mode is default", Blocking: false}
	tests := []struct {
		name     string
		findings []kernels.PreRunFinding
		policy   string
		warnings int
		refused  bool
	}{
		{"clean", nil, preRunStrict, 0, false},
		{"warn shows everything, measures", []kernels.PreRunFinding{busy, advice}, preRunWarn, 2, false},
		{"strict refuses a busy GPU", []kernels.PreRunFinding{busy, advice}, preRunStrict, 2, true},
		{"strict measures despite advice", []kernels.PreRunFinding{advice}, preRunStrict, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := judgePreRun(tt.findings, tt.policy)
			if len(w) != tt.warnings || (err != nil) != tt.refused {
				t.Fatalf("%d warnings, err %v; want %d, refused %v", len(w), err, tt.warnings, tt.refused)
			}
			var ee *exitError
			if err != nil && (!errors.As(err, &ee) || ee.code != exitInfra || !strings.Contains(err.Error(), "4242 python3") || strings.Contains(err.Error(), "compute mode")) {
				t.Errorf("refusal %v: want exit 3 naming the blocking finding only", err)
			}
		})
	}
}
