-- Per column, the decimal separator read off its first rows ('.' or ','), so '1.234' is read the way the
-- rest of that column is written rather than by a fixed guess.
alter table uploads add column decimal_separators jsonb not null default '{}';
