-- Which mapped fields are still as Backsignal suggested them (field → column), so 'Clear Suggestions' finds
-- them again after a reload or on another device (spec §4). Before, only the browser that mapped knew.
alter table uploads add column auto_mapped jsonb not null default '{}';
