// Baseline: a minimal node:http script making one GET with the headers vx sends and printing the
// body. Arguments: the URL and the bearer token.
const http = require('node:http');
const headers = { 'user-agent': 'vx/0.1.0', authorization: `Bearer ${process.argv[3] ?? 'x'}` };
http.get(process.argv[2], { headers }, (res) => {
  const chunks = [];
  res.on('data', (c) => chunks.push(c));
  res.on('end', () => {
    process.stdout.write(Buffer.concat(chunks));
    if (res.statusCode !== 200) process.exitCode = 1;
  });
});
