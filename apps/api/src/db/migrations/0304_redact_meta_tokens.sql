-- Meta quotes a token it cannot parse in its error ("Malformed access token EAAB…"), and those answers were
-- kept verbatim until the events client began cutting the token out (security.md §2.10: the token is
-- write-only). Answers stored before then lose any Meta-shaped token too.
update send_batches
   set error_raw = regexp_replace(error_raw, 'EAA[A-Za-z0-9]{16,}', '[access token removed]', 'g')
 where error_raw ~ 'EAA[A-Za-z0-9]{16,}';
update send_runs
   set stop_error = regexp_replace(stop_error, 'EAA[A-Za-z0-9]{16,}', '[access token removed]', 'g')
 where stop_error ~ 'EAA[A-Za-z0-9]{16,}';
