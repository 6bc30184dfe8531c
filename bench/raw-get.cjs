// Baseline: a minimal node:http script making one GET and printing the body.
const http = require('node:http');
http.get(process.argv[2], { headers: { authorization: 'Bearer x' } }, (res) => {
  const chunks = [];
  res.on('data', (c) => chunks.push(c));
  res.on('end', () => process.stdout.write(Buffer.concat(chunks)));
});
