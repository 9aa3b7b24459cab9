/** `syncdex opensearch`: a local single-node OpenSearch (local-opensearch/) for trying the production index. */
import { buildLocalOpenSearch, localOpenSearchMissing, startLocalOpenSearch } from '../../services/local-opensearch.js';
import { AppError } from '../../errors.js';
import { int, parse } from '../args.js';
import { untilSignal } from './serve.js';

export async function opensearchCommand(argv: string[]): Promise<number> {
  const p = parse(argv, { port: { type: 'string' }, 'heap-mb': { type: 'string' }, 'build-only': { type: 'boolean' } });
  const missing = localOpenSearchMissing();
  if (missing !== null) throw new AppError('config_invalid', `the local OpenSearch cannot start: ${missing}`);
  if (p.values['build-only'] === true) {
    await buildLocalOpenSearch();
    process.stdout.write('local OpenSearch built (local-opensearch/target)\n');
    return 0;
  }
  const port = int(p, 'port', { max: 65535 });
  const heapMb = int(p, 'heap-mb', { min: 256, max: 31_744 });
  process.stderr.write('starting a local OpenSearch (the first start fetches its artifacts with Maven)...\n');
  const node = await startLocalOpenSearch({ ...(port === undefined ? {} : { httpPort: port }), ...(heapMb === undefined ? {} : { heapMb }) });
  process.stdout.write(`${node.url}\n`);
  process.stderr.write(`OpenSearch ${node.url} (data in ${node.home}, removed on exit). In another shell:\n  export OPENSEARCH_URL=${node.url}\nCtrl-C stops it.\n`);
  await untilSignal();
  await node.stop();
  return 0;
}
