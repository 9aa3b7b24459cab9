-- syncdex schema v7: which engine index a search index name stood for when its watermarks were set.
--
-- Index names are reused (a new or restored OpenSearch cluster creates generation 1 again, an
-- index deleted by hand is re-created): watermarks kept from the old index would leave the new
-- one empty for good, because unchanged records never get a new version. The shipper records the
-- engine's own id of the index (OpenSearch: settings.index.uuid); when it changes, that name's
-- watermarks start over. NULL (rows from before this migration) is adopted, not reset.
alter table search_indexes add column engine_uuid text;
