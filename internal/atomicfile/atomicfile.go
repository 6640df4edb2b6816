// Package atomicfile writes files so that a reader never sees one half
// written: the bytes go to a temporary file in the same directory, which is
// synced and then renamed over the path. Results files, the directory
// store's files and the spool all write through it. Standard library only.
package atomicfile

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
)

// Write writes data to path through a synced temporary file and a rename.
func Write(path string, data []byte) error {
	return WriteFunc(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFunc is Write for content that write streams (buffered), so that a
// large document needs no buffer of its whole bytes.
//
// A path that exists and is not a regular file (/dev/null, /dev/stdout, a
// named pipe) is written in place: renaming over it would replace the
// device with a file.
func WriteFunc(path string, write func(w io.Writer) error) error {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		return writeInPlace(path, write)
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	// CreateTemp makes the file 0600; results and store files are meant to be
	// read by other users (a CI artifact, a shared store), as os.WriteFile's are.
	err = f.Chmod(0o644)
	if err == nil {
		bw := bufio.NewWriterSize(f, 64<<10)
		err = write(bw)
		if err == nil {
			err = bw.Flush()
		}
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

func writeInPlace(path string, write func(w io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 64<<10)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
