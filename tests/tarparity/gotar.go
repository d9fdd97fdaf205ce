// gotar: how Go's archive/tar reads each tar named on the command line, the
// reader podman 4.3.1 and dockerd 20.10 extract with (built with Go 1.19).
// Standard library only; built module-less by tests/tarparity/run.py:
//
//	GO111MODULE=off go build -o gotar gotar.go
//
// For each file: "== PATH", one line per entry (what Reader.Next returned:
// typeflag, name, linkname, mode, size, uid, gid, device numbers, Xattrs,
// PAXRecords), then "EOF" or "ERR <error>" where Next stopped. The data is
// not read (Next discards it, as a daemon that reads it whole would end up
// at the same place). tests/helpers/tar_print.c prints the checker's
// reader in the same form.
package main

import (
	"archive/tar"
	"bufio"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// esc: printable ASCII as is, other bytes and the separators as \xHH
func esc(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c > 0x20 && c < 0x7f && c != '\\' && c != '=' && c != ';' && c != '"' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "\\x%02x", c)
		}
	}
	return b.String()
}

func kv(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s=%s;", esc(k), esc(m[k]))
	}
	return b.String()
}

func main() {
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for _, path := range os.Args[1:] {
		fmt.Fprintf(w, "== %s\n", path)
		f, err := os.Open(path)
		if err != nil {
			fmt.Fprintf(w, "ERR open: %v\n", err)
			continue
		}
		// not a Seeker: the daemons read a pipe or a decompressor
		tr := tar.NewReader(struct{ io.Reader }{bufio.NewReader(f)})
		for {
			h, err := tr.Next()
			if err == io.EOF {
				fmt.Fprintln(w, "EOF")
				break
			}
			if err != nil {
				fmt.Fprintf(w, "ERR %v\n", err)
				break
			}
			fmt.Fprintf(w, "E t=%s n=%s l=%s m=%d s=%d u=%d g=%d d=%d,%d x=%s p=%s\n",
				esc(string([]byte{h.Typeflag})), esc(h.Name), esc(h.Linkname), h.Mode,
				h.Size, h.Uid, h.Gid, h.Devmajor, h.Devminor, kv(h.Xattrs), kv(h.PAXRecords))
		}
		f.Close()
	}
}
