/**
 * Replication planning (pure): partitions of an entity and the params of each page request,
 * obeying required params, the largest allowed page size and each paging style. The pieces live
 * in `planner/`; this module is the one import the worker and tests use.
 */
export { recordIdOf, withDerivedFields } from './planner/derive.js';
export { boundSeconds, formatBound, formatTime, readLowerBound, timeSlices } from './planner/incremental.js';
export { checkPageMeta, firstPageParams, metaAt, nextPageParams, recordSpans, recordsOf, reportedTotal, type FetchedPage } from './planner/paging.js';
export {
  configValues,
  parentDims,
  parentKey,
  parentValueOf,
  planPartitions,
  type ParentDim,
  type ParentValue,
  type ParentValues,
  type Partition,
} from './planner/partitions.js';
export { readCall, readOf, runtimeParams, type ReadCall } from './planner/read.js';
export { fromWireParams, paramSpecAt, toWireParams } from './planner/wire-params.js';
export { applyTemplate, matchTemplate } from './planner/template.js';
