package filestore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/perfgate/perfgate/internal/atomicfile"
	"github.com/perfgate/perfgate/tracker/model"
)

// The reports of a sharded job's shards (history.ShardStore) live beside
// the runs, one file per shard, written under the store's lock:
//
//	DIR/shards/HASH/SHARD.json   HASH: sha256 of the set's key
//
// Shards on several hosts meet here only when DIR is shared storage.

type shardFile struct {
	Set        string    `json:"set"`
	Shard      int       `json:"shard"`
	Shards     int       `json:"shards"`
	Data       []byte    `json:"data"`
	RecordedAt time.Time `json:"recorded_at"`
}

func (s *Store) shardDir(set string) string {
	h := sha256.Sum256([]byte(set))
	return filepath.Join(s.dir, "shards", hex.EncodeToString(h[:]))
}

// SaveShard stores a shard's report, replacing the shard's earlier one.
func (s *Store) SaveShard(ctx context.Context, r model.ShardReport) error {
	if r.Shard < 0 || r.Shards <= r.Shard {
		return fmt.Errorf("filestore: shard %d of %d", r.Shard, r.Shards)
	}
	return s.withLock(ctx, true, func(bool) error {
		dir := s.shardDir(r.Set)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return infra("create shard directory", err)
		}
		b, err := json.Marshal(shardFile{Set: r.Set, Shard: r.Shard, Shards: r.Shards, Data: r.Data, RecordedAt: time.Now().UTC()})
		if err != nil {
			return infra("encode shard report", err)
		}
		if err := atomicfile.Write(filepath.Join(dir, strconv.Itoa(r.Shard)+".json"), b); err != nil {
			return infra("save shard report", err)
		}
		return nil
	})
}

// Shards returns the reports stored for the shard set, by shard.
func (s *Store) Shards(ctx context.Context, set string) ([]model.ShardReport, error) {
	var out []model.ShardReport
	err := s.withLock(ctx, false, func(exists bool) error {
		if !exists {
			return nil
		}
		dir := s.shardDir(set)
		des, err := os.ReadDir(dir)
		if notExist(err) {
			return nil
		} else if err != nil {
			return infra("read shard reports", err)
		}
		for _, de := range des {
			if de.IsDir() || strings.HasPrefix(de.Name(), ".") || !strings.HasSuffix(de.Name(), ".json") {
				continue
			}
			b, err := os.ReadFile(filepath.Join(dir, de.Name()))
			if err != nil {
				return infra("read shard reports", err)
			}
			var f shardFile
			if err := json.Unmarshal(b, &f); err != nil || f.Set != set {
				// Damaged: the shard counts as not reported, and its job's
				// re-run replaces the file; the other shards' verdict stands.
				file := filepath.Join(dir, de.Name())
				s.warnf("%s is not a readable shard report of this set (%v): skipped; re-run that shard's job, or delete %s", file, err, file)
				continue
			}
			out = append(out, model.ShardReport{Set: f.Set, Shard: f.Shard, Shards: f.Shards, Data: f.Data, RecordedAt: f.RecordedAt})
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Shard < out[j].Shard })
	return out, err
}

// pruneShards deletes (counts, on a dry run) the shard reports saved
// before q.OlderThan, by their files' modification time (their save
// time), and the set directories left empty. A sharded job's reports
// matter only while its pull request's head commit is checked.
func (s *Store) pruneShards(q model.PruneQuery) (int, error) {
	sets, err := os.ReadDir(filepath.Join(s.dir, "shards"))
	if notExist(err) {
		return 0, nil
	} else if err != nil {
		return 0, infra("list shard reports", err)
	}
	n := 0
	for _, set := range sets {
		dir := filepath.Join(s.dir, "shards", set.Name())
		des, err := os.ReadDir(dir)
		if err != nil || !set.IsDir() {
			continue
		}
		left := len(des)
		for _, de := range des {
			fi, err := de.Info()
			if err != nil || de.IsDir() || !fi.ModTime().Before(q.OlderThan) {
				continue
			}
			if !strings.HasPrefix(de.Name(), ".") {
				n++
			}
			if q.DryRun {
				continue
			}
			if err := os.Remove(filepath.Join(dir, de.Name())); err != nil && !notExist(err) {
				return n, infra("delete shard report", err)
			}
			left--
		}
		if left == 0 && !q.DryRun {
			os.Remove(dir)
		}
	}
	return n, nil
}
