package model

import (
	"errors"
	"io/fs"
	"os"
	"testing"
)

// TestInputErrorMessage pins how the parts of an InputError are joined.
func TestInputErrorMessage(t *testing.T) {
	cause := errors.New("unexpected EOF")
	tests := []struct {
		name string
		e    InputError
		want string
	}{
		{"message only", InputError{Msg: "bad"}, "bad"},
		{"file, path and message", InputError{File: "r.json", Path: "$.run.id", Msg: "required field is missing"}, "r.json: $.run.id: required field is missing"},
		{"cause appended", InputError{File: "r.json", Msg: "cannot pool", Err: cause}, "r.json: cannot pool: unexpected EOF"},
		{"cause already in the message", InputError{File: "r.json", Msg: "invalid JSON: unexpected EOF", Err: cause}, "r.json: invalid JSON: unexpected EOF"},
		{"path error: its path is left out", InputError{File: "r.json", Msg: "cannot read", Err: &fs.PathError{Op: "open", Path: "/abs/r.json", Err: os.ErrPermission}}, "r.json: cannot read: permission denied"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.e.Error(); got != tt.want {
				t.Errorf("Error() = %q, want %q", got, tt.want)
			}
		})
	}
}
