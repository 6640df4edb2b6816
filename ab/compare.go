package ab

import (
	"context"
	"regexp"

	"github.com/perfgate/perfgate/tracker/check"
	"github.com/perfgate/perfgate/tracker/compare"
	"github.com/perfgate/perfgate/tracker/model"
	"github.com/perfgate/perfgate/tracker/resultsjson"
)

// Compare runs rounds of the suites only matches (all when nil) on both
// sides and judges the head's rounds against the base's: with opt, and the
// head configuration's settings where explicit (the names of check's
// settings the user gave) leaves them open (check.ApplyConfig). It
// returns the comparison and both sides' rounds.
func (s *Session) Compare(ctx context.Context, only *regexp.Regexp, rounds int, opt compare.Options, explicit map[string]bool) (c *compare.Comparison, base, head []*model.Results, err error) {
	if base, head, err = s.Rounds(ctx, only, rounds); err != nil {
		return nil, nil, nil, err
	}
	opt.Interleaved = true
	opt = check.ApplyConfig(check.Settings{Compare: opt}, s.HeadConfig, explicit, check.Keys(base, head)).Compare
	if c, err = compare.Compare(base, head, opt); err != nil {
		return nil, nil, nil, &model.InputError{Msg: err.Error(), Err: err}
	}
	return c, base, head, nil
}

// WritePooled writes a side's pooled rounds (Pool) to path ("": nowhere).
func WritePooled(path string, side []*model.Results) error {
	if path == "" {
		return nil
	}
	r, err := Pool(side)
	if err != nil {
		return err
	}
	if err := resultsjson.WriteFile(path, r); err != nil {
		return &model.InfraError{Op: "write " + path, Err: err}
	}
	return nil
}
