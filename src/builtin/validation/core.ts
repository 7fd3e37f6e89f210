// Kept for src/engine's side-effect import until its strategy stage calls src/builtin/strategy.ts
// (issue 27, item 5): the kinds' validators are in the table of src/builtin/strategies.ts.
import '../strategy.js'
