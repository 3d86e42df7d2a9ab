/** Session updates that say something about the session rather than the turn, shared by the ACP reader and writer. */

/** The session updates read as a `status` named by their kind, with their other fields kept. */
export const ACP_STATUS_UPDATES: ReadonlySet<string> = new Set([
  'available_commands_update',
  'current_mode_update',
  'session_info_update',
  'config_option_update',
  'config_options_update',
  // Told to the user or about the context, outside the session's history: never part of a turn.
  'notice',
  'compaction_update',
  'compaction_summary_chunk',
]);
