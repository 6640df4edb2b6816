module gorgonia.org/cu

go 1.17

require (
	github.com/google/uuid v1.1.1
	github.com/pkg/errors v0.9.1
)
