'use strict';
/*
 * tests/integration/libs/measure.js - one measurement of a daemon that needs a hijacked
 * connection (tests/integration/libs.sh, scenario measure):
 *
 *   node measure.js --socket PATH attach-body
 *
 * creates a container running `cat` with stdin open, attaches with dockerode (which
 * sends its attach options as a JSON body before the upgrade), starts it, writes
 * "LINE\n", closes stdin, and prints the container's output as one JSON string.
 * podman 4.3.1 feeds the body bytes to the container's stdin; dockerd 20.10 drops them.
 */
const { PassThrough } = require('stream');
const Docker = require('dockerode');

const sock = process.argv[process.argv.indexOf('--socket') + 1];
const what = process.argv[process.argv.length - 1];
const docker = new Docker({ socketPath: sock });

async function attachBody() {
  const c = await docker.createContainer({ Image: 'localhost/busybox', Cmd: ['cat'], OpenStdin: true,
    StdinOnce: true, AttachStdin: true, AttachStdout: true, AttachStderr: true });
  try {
    const s = await c.attach({ stream: true, stdin: true, stdout: true, stderr: true, hijack: true });
    const out = new PassThrough();
    const parts = [];
    out.on('data', (d) => parts.push(d));
    docker.modem.demuxStream(s, out, out);
    const ended = new Promise((resolve) => { s.on('end', resolve); s.on('close', resolve); });
    await c.start();
    s.write('LINE\n');
    s.end();
    await ended;
    await c.wait();
    return Buffer.concat(parts).toString();
  } finally {
    await c.remove({ force: true });
  }
}

(async () => {
  if (what !== 'attach-body') throw new Error('usage: node measure.js --socket PATH attach-body');
  console.log(JSON.stringify(await attachBody()));
})().catch((e) => { console.error('measure: ' + e.message); process.exit(1); });
