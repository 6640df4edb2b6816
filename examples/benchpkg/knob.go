package benchpkg

// slowdownPercent is the deliberate slowdown knob of the A/B demo: set it to
// 20 and Checksum does 20% more work. Keep it 0 on main.
const slowdownPercent = 0
