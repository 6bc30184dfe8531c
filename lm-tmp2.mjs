console.log('start', (process.memoryUsage().rss/1e6).toFixed(0));
const { open } = await import('lmdb');
console.log('import', (process.memoryUsage().rss/1e6).toFixed(0));
const db = open({ path: process.argv[2], compression: false, encoding: 'binary', noSubdir: true });
console.log('open', (process.memoryUsage().rss/1e6).toFixed(0), db.getStats());
db.getBinary(Buffer.from('x'));
console.log('get', (process.memoryUsage().rss/1e6).toFixed(0));
