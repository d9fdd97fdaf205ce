'use strict';
/*
 * tests/integration/libs/flows.js - the documented everyday flows of dockerode 5 and
 * testcontainers 12, run by tests/integration/libs.sh against one socket:
 * the backend directly, or a gateway. One line per flow on stdout:
 *
 *   FLOW<TAB><name><TAB>ok<TAB><ms>
 *   FLOW<TAB><name><TAB>fail<TAB><ms><TAB><message>
 *
 * Refusal flows (mode "gateway" only) pass when the library call fails with the
 * gateway's status and "container-gateway: <code>" in the message.
 *
 *   node flows.js --socket PATH --mode direct|gateway [--foreign ID] [--workdir DIR] [--matrix 1]
 *                 [--only NAME,...]
 *
 * --matrix 1 runs the flows of the wider client matrix (tests/integration/clients.sh,
 * make check-clients) instead of the others.
 *
 * Needs NODE_PATH to hold the node_modules of scripts/install-libs.sh, the image
 * localhost/busybox on the backend, and (set by libs.sh) TESTCONTAINERS_RYUK_DISABLED
 * and TESTCONTAINERS_HOST_OVERRIDE. Every container, volume, network and image a
 * flow creates carries the run's prefix and is removed by the flow.
 */
const { PassThrough } = require('stream');

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
if (!args.socket || !['direct', 'gateway'].includes(args.mode)) {
  console.error('usage: node flows.js --socket PATH --mode direct|gateway [--foreign ID] [--only A,B]');
  process.exit(2);
}
process.env.DOCKER_HOST = 'unix://' + args.socket;	/* read by testcontainers at load */
const Docker = require('dockerode');
const tar = require('tar-stream');
const { GenericContainer, Wait, Network, DockerComposeEnvironment } = require('testcontainers');
const fs = require('fs');
const os = require('os');
const path = require('path');

const IMG = 'localhost/busybox';
const PFX = 'cglib' + args.mode[0] + process.pid;
const docker = new Docker({ socketPath: args.socket });
const gateway = args.mode === 'gateway';
let seq = 0;
const name = (what) => `${PFX}-${what}-${++seq}`;

function check(cond, msg) { if (!cond) throw new Error(msg); }
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/* Collect a (possibly multiplexed) stream's stdout until it ends. */
function collect(stream, tty) {
  return new Promise((resolve, reject) => {
    const out = new PassThrough(), err = new PassThrough();
    const chunks = [];
    out.on('data', (d) => chunks.push(d));
    err.on('data', (d) => chunks.push(d));
    if (tty) stream.pipe(out); else docker.modem.demuxStream(stream, out, err);
    stream.on('end', () => resolve(Buffer.concat(chunks).toString()));
    stream.on('close', () => resolve(Buffer.concat(chunks).toString()));
    stream.on('error', reject);
  });
}

/* A tar archive holding one file. */
function tarOf(file, content) {
  return new Promise((resolve, reject) => {
    const pack = tar.pack(), parts = [];
    pack.entry({ name: file }, content);
    pack.finalize();
    pack.on('data', (d) => parts.push(d));
    pack.on('end', () => resolve(Buffer.concat(parts)));
    pack.on('error', reject);
  });
}

/* The content of the first file of a tar stream. */
function untarFirst(stream) {
  return new Promise((resolve, reject) => {
    const ex = tar.extract();
    let got = null;
    ex.on('entry', (header, s, next) => {
      const parts = [];
      s.on('data', (d) => parts.push(d));
      s.on('end', () => { if (got === null && header.type === 'file') got = Buffer.concat(parts).toString(); next(); });
      s.resume();
    });
    ex.on('finish', () => resolve(got));
    ex.on('error', reject);
    stream.pipe(ex);
  });
}

async function running(cmd, extra) {
  const c = await docker.createContainer(Object.assign({ Image: IMG, name: name('c'), Cmd: cmd }, extra || {}));
  await c.start();
  return c;
}

/* A library call that the gateway must refuse with status and code. */
async function refused(p, status, code) {
  try {
    await p;
  } catch (e) {
    const msg = String((e.json && e.json.message) || e.message);
    check(e.statusCode === status || msg.includes(String(status)), `status ${e.statusCode}, wanted ${status}: ${msg}`);
    check(msg.includes('container-gateway: ' + code), `message lacks container-gateway: ${code}: ${msg}`);
    return;
  }
  throw new Error(`not refused (wanted ${status} ${code})`);
}

const flows = [];
const flow = (n, fn, opts) => flows.push(Object.assign({ name: n, fn }, opts || {}));

/* ---- dockerode: containers ---------------------------------------------------- */
flow('dockerode create, start, inspect, remove', async () => {
  const c = await docker.createContainer({ Image: IMG, name: name('c'), Cmd: ['sleep', '60'], Labels: { app: 'x' } });
  await c.start();
  const i = await c.inspect();
  check(i.State.Running && i.Config.Labels.app === 'x', 'not running / label lost');
  await c.remove({ force: true });
});
flow('dockerode logs', async () => {
  const c = await running(['sh', '-c', 'echo hello-logs; sleep 60']);
  let out = '';
  for (let i = 0; i < 50 && !out.includes('hello-logs'); i++) {
    out = (await c.logs({ stdout: true, stderr: true })).toString();
    if (!out.includes('hello-logs')) await sleep(100);
  }
  await c.remove({ force: true });
  check(out.includes('hello-logs'), 'logs: ' + JSON.stringify(out));
});
flow('dockerode stop, restart, kill, wait', async () => {
  const c = await running(['sleep', '60']);
  await c.stop({ t: 1 });
  check(!(await c.inspect()).State.Running, 'still running after stop');
  await c.restart({ t: 1 });
  check((await c.inspect()).State.Running, 'not running after restart');
  const w = c.wait();
  await c.kill({ signal: 'SIGKILL' });
  const r = await w;
  check(r.StatusCode === 137, 'wait: ' + JSON.stringify(r));
  await c.remove({ force: true });
});
flow('dockerode rename', async () => {
  const c = await running(['sleep', '60']);
  const to = name('renamed');
  await c.rename({ name: to });
  check((await c.inspect()).Name.replace(/^\//, '') === to, 'not renamed');
  await c.remove({ force: true });
});
flow('dockerode resize', async () => {
  const c = await running(['sleep', '60'], { Tty: true, OpenStdin: true });
  await c.resize({ h: 30, w: 100 });
  await c.remove({ force: true });
});
flow('dockerode pause, unpause, top, stats', async () => {
  const c = await running(['sleep', '60']);
  await c.pause();
  await c.unpause();
  const t = await c.top();
  check(JSON.stringify(t).includes('sleep'), 'top: ' + JSON.stringify(t));
  const s = await c.stats({ stream: false });
  check(s && typeof s === 'object', 'stats');
  await c.remove({ force: true });
});
flow('dockerode list', async () => {
  const c = await running(['sleep', '60']);
  const l = await docker.listContainers({ all: true, filters: { name: [PFX] } });
  await c.remove({ force: true });
  check(l.some((x) => x.Id === c.id), 'not listed');
});
flow('dockerode run', async () => {
  const out = new PassThrough();
  const parts = [];
  out.on('data', (d) => parts.push(d));
  const [res, c] = await docker.run(IMG, ['echo', 'ran-ok'], out, { name: name('run'), Tty: false });
  await c.remove({ force: true });
  check(res.StatusCode === 0, 'exit ' + res.StatusCode);
  check(Buffer.concat(parts).toString().includes('ran-ok'), 'output ' + Buffer.concat(parts));
});

/* ---- dockerode: exec, attach, archive ----------------------------------------- */
flow('dockerode exec without stdin', async () => {
  const c = await running(['sleep', '60']);
  const e = await c.exec({ Cmd: ['echo', 'exec-out'], AttachStdout: true, AttachStderr: true });
  const s = await e.start({ hijack: true, stdin: false });
  const out = await collect(s, false);
  const i = await e.inspect();
  await c.remove({ force: true });
  check(out.includes('exec-out') && i.ExitCode === 0, `out ${JSON.stringify(out)} exit ${i.ExitCode}`);
});
flow('dockerode exec with stdin', async () => {
  const c = await running(['sleep', '60']);
  const e = await c.exec({ Cmd: ['cat'], AttachStdin: true, AttachStdout: true, AttachStderr: true });
  const s = await e.start({ hijack: true, stdin: true });
  const done = collect(s, false);
  s.write('stdin-to-exec\n');
  s.end();
  const out = await done;
  await c.remove({ force: true });
  check(out.includes('stdin-to-exec'), 'out ' + JSON.stringify(out));
});
flow('dockerode attach with stdin', async () => {
  const c = await docker.createContainer({ Image: IMG, name: name('att'), Cmd: ['cat'],
    OpenStdin: true, StdinOnce: true, AttachStdin: true, AttachStdout: true, AttachStderr: true });
  const s = await c.attach({ stream: true, stdin: true, stdout: true, stderr: true, hijack: true });
  const done = collect(s, false);
  await c.start();
  s.write('stdin-to-attach\n');
  s.end();
  const out = await done;
  const w = await c.wait();
  await c.remove({ force: true });
  check(out.includes('stdin-to-attach') && w.StatusCode === 0, `out ${JSON.stringify(out)} exit ${w.StatusCode}`);
});
flow('dockerode archive upload and download', async () => {
  const c = await running(['sleep', '60']);
  await c.putArchive(await tarOf('up.txt', 'uploaded-content'), { path: '/tmp' });
  const got = await untarFirst(await c.getArchive({ path: '/tmp/up.txt' }));
  const res = await c.infoArchive({ path: '/tmp/up.txt' });	/* HEAD: the stat header */
  res.resume();
  const stat = JSON.parse(Buffer.from(res.headers['x-docker-container-path-stat'] || 'e30=',
    'base64').toString());
  await c.remove({ force: true });
  check(got === 'uploaded-content', 'downloaded ' + JSON.stringify(got));
  check(stat.name === 'up.txt', 'stat ' + JSON.stringify(stat));
});

/* ---- dockerode: volumes, networks, commit, prune, events ---------------------- */
flow('dockerode volumes', async () => {
  const n = name('vol');
  await docker.createVolume({ Name: n, Labels: { app: 'x' } });
  const i = await docker.getVolume(n).inspect();
  check(i.Name === n, 'inspect');
  const l = await docker.listVolumes();
  check((l.Volumes || []).some((v) => v.Name === n), 'not listed');
  const c = await running(['sleep', '60'], { HostConfig: { Binds: [`${n}:/data`] } });
  await c.remove({ force: true });
  await docker.getVolume(n).remove();
});
flow('dockerode networks', async () => {
  const n = name('net');
  const net = await docker.createNetwork({ Name: n });
  const i = await net.inspect();
  check(i.Name === n, 'inspect');
  const c = await running(['sleep', '60']);
  await net.connect({ Container: c.id });
  await net.disconnect({ Container: c.id });
  await c.remove({ force: true });
  const l = await docker.listNetworks();
  check(l.some((x) => x.Name === n), 'not listed');
  await net.remove();
});
flow('dockerode commit', async () => {
  const c = await running(['sh', '-c', 'echo x > /committed; sleep 60']);
  const repo = 'localhost/' + name('img');
  await c.commit({ repo, tag: 'v1', comment: 'libs', author: 'libs', pause: true });
  const i = await docker.getImage(repo + ':v1').inspect();
  check(i && i.Id, 'no image');
  await c.remove({ force: true });
  await docker.getImage(repo + ':v1').remove();
});
flow('dockerode prune', async () => {
  const c = await docker.createContainer({ Image: IMG, name: name('prune'), Cmd: ['true'] });
  const v = name('prunevol');
  await docker.createVolume({ Name: v });
  const r = await docker.pruneContainers();
  check((r.ContainersDeleted || []).includes(c.id), 'container not pruned: ' + JSON.stringify(r));
  const rv = await docker.pruneVolumes();
  check((rv.VolumesDeleted || []).includes(v), 'volume not pruned: ' + JSON.stringify(rv));
  await docker.pruneNetworks();
  await docker.pruneImages();
});
flow('dockerode events', async () => {
  const ev = await docker.getEvents({ filters: { type: ['container'] } });
  const seen = new Promise((resolve, reject) => {
    let buf = '';
    const t = setTimeout(() => reject(new Error('no start event within 20 s')), 20000);
    ev.on('data', (d) => {
      buf += d.toString();
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl); buf = buf.slice(nl + 1);
        if (!line.trim()) continue;
        const e = JSON.parse(line);
        if ((e.Action || e.status) === 'start' && e.Actor && e.Actor.Attributes &&
            e.Actor.Attributes.name && e.Actor.Attributes.name.startsWith(PFX + '-ev')) { clearTimeout(t); resolve(e); }
      }
    });
    ev.on('error', reject);
  });
  const c = await docker.createContainer({ Image: IMG, name: PFX + '-ev-' + (++seq), Cmd: ['sleep', '60'] });
  await c.start();
  try { await seen; } finally { ev.destroy(); await c.remove({ force: true }); }
});

/* ---- testcontainers ----------------------------------------------------------- */
flow('testcontainers GenericContainer with exec', async () => {
  const c = await new GenericContainer(IMG).withCommand(['sh', '-c', 'echo ready; exec sleep 300'])
    .withWaitStrategy(Wait.forLogMessage('ready')).start();
  try {
    const r = await c.exec(['echo', 'tc-exec']);
    check(r.exitCode === 0 && r.output.includes('tc-exec'), 'exec ' + JSON.stringify(r));
    const r2 = await c.exec(['sh', '-c', 'exit 3']);
    check(r2.exitCode === 3, 'exit code ' + r2.exitCode);
  } finally { await c.stop(); }
});
flow('testcontainers copy in and out', async () => {
  const c = await new GenericContainer(IMG).withCommand(['sleep', '300'])
    .withCopyContentToContainer([{ content: 'tc-before-start', target: '/tmp/before.txt' }]).start();
  try {
    await c.copyContentToContainer([{ content: 'tc-after-start', target: '/tmp/after.txt' }]);
    const before = await untarFirst(await c.copyArchiveFromContainer('/tmp/before.txt'));
    const after = await untarFirst(await c.copyArchiveFromContainer('/tmp/after.txt'));
    check(before === 'tc-before-start' && after === 'tc-after-start', `copied ${before} ${after}`);
  } finally { await c.stop(); }
});
flow('testcontainers wait for a successful command', async () => {
  const c = await new GenericContainer(IMG).withCommand(['sh', '-c', 'sleep 1; touch /tmp/ok; exec sleep 300'])
    .withWaitStrategy(Wait.forSuccessfulCommand('test -f /tmp/ok')).withStartupTimeout(30000).start();
  await c.stop();
});
flow('testcontainers wait for listening ports and HTTP', async () => {
  const c = await new GenericContainer(IMG).withCommand(['sh', '-c', 'echo hi > /tmp/index.html; exec httpd -f -p 8080 -h /tmp'])
    .withExposedPorts(8080).withWaitStrategy(Wait.forHttp('/index.html', 8080)).withStartupTimeout(30000).start();
  try { check(c.getMappedPort(8080) > 0, 'no mapped port'); } finally { await c.stop(); }
});
/* A log wait after restart asks logs?since=<seconds.millis>, which podman 4.3.1 does not
   honour (it fails directly too): the restart flow waits for a command instead. */
flow('testcontainers stop and restart', async () => {
  const c = await new GenericContainer(IMG).withCommand(['sh', '-c', 'exec sleep 300'])
    .withWaitStrategy(Wait.forSuccessfulCommand('true')).start();
  await c.restart();
  const r = await c.exec(['echo', 'after-restart']);
  check(r.output.includes('after-restart'), 'exec after restart');
  await c.stop();
});

/* ---- the wider client matrix (tests/integration/clients.sh, --matrix) ---------- */
const mflow = (n, fn) => flow(n, fn, { matrix: true });
/* Networks named with hex digits only (testcontainers' Network names them so). */
mflow('testcontainers Network', async () => {
  const net = await new Network().start();
  try {
    const a = await new GenericContainer(IMG).withCommand(['sleep', '300']).withNetwork(net)
      .withNetworkAliases('svc').start();
    const b = await new GenericContainer(IMG).withCommand(['sleep', '300']).withNetwork(net).start();
    try {
      check(a.getNetworkNames().includes(net.getName()), 'a: networks ' + a.getNetworkNames());
      check(a.getIpAddress(net.getName()) && b.getIpAddress(net.getName()), 'no address on the network');
    } finally { await a.stop(); await b.stop(); }
  } finally { await net.stop(); }
});
/* commit: deleteOnExit true keeps testcontainers' session label (the reaper's), false
   clears it with a LABEL change of an empty value. */
for (const deleteOnExit of [true, false]) {
  mflow(`testcontainers commit with deleteOnExit ${deleteOnExit}`, async () => {
    const c = await new GenericContainer(IMG).withCommand(['sh', '-c', 'echo x > /committed; exec sleep 300']).start();
    const repo = 'localhost/' + name('tccommit');
    try {
      const id = await c.commit({ repo, tag: '1', deleteOnExit });
      const i = await docker.getImage(id).inspect();
      const session = (i.Config.Labels || {})['org.testcontainers.session-id'];
      check(deleteOnExit ? !!session : !session, `session label ${JSON.stringify(session)}`);
      await docker.getImage(repo + ':1').remove();
    } finally { await c.stop(); }
  });
}
mflow('testcontainers compose environment (docker-compose 1.29)', async () => {
  const dir = fs.mkdtempSync(path.join(args.workdir || os.tmpdir(), 'tc-compose-'));
  fs.writeFileSync(path.join(dir, 'compose.yml'), `version: "3"\nservices:\n  svc:\n    image: ${IMG}\n` +
    '    command: ["sh", "-c", "echo compose-ready; exec sleep 300"]\n');
  const project = name('tcc').replace(/-/g, '');
  const env = await new DockerComposeEnvironment(dir, 'compose.yml').withProjectName(project)
    .withClientOptions({ executable: { standalone: true, executablePath: 'docker-compose' } })
    .withWaitStrategy(`${project}_svc_1`, Wait.forLogMessage('compose-ready')).up();
  try {
    const r = await env.getContainer(`${project}_svc_1`).exec(['echo', 'compose-exec']);
    check(r.output.includes('compose-exec'), 'exec ' + JSON.stringify(r));
  } finally {
    await env.down();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/* ---- refusals the policy requires (through the gateway only) ------------------ */
const refusal = (n, fn) => flow(n, fn, { refusal: true });
refusal('refused: dockerode privileged create', () =>
  refused(docker.createContainer({ Image: IMG, name: name('priv'), HostConfig: { Privileged: true } }), 403, 'privileged'));
refusal('refused: dockerode bind of a host directory', () =>
  refused(docker.createContainer({ Image: IMG, name: name('bind'), HostConfig: { Binds: ['/etc:/host-etc'] } }), 403, 'bind-mount'));
refusal('refused: dockerode run with legacy VolumesFrom', () =>
  refused(docker.createContainer({ Image: IMG, name: name('vf'), VolumesFrom: ['other'] }), 403, 'volumes-from'));
refusal('refused: dockerode privileged exec', async () => {
  const c = await running(['sleep', '60']);
  try { await refused(c.exec({ Cmd: ['true'], Privileged: true }), 403, 'privileged'); } finally { await c.remove({ force: true }); }
});
/* A POST through dockerode's modem with its own query and body. */
const dial = (path, query, body) => new Promise((resolve, reject) => docker.modem.dial({
  path: path + '?', method: 'POST', statusCodes: { 200: true, 201: true, 204: true },
  options: { _query: query, _body: body } }, (err, data) => (err ? reject(err) : resolve(data))));
refusal('refused: a different name in the create query and body', () =>
  refused(dial('/containers/create', { name: name('q') }, { Image: IMG, name: name('b') }), 403, 'ambiguous-field'));
refusal('refused: dockerode changes of a running container', async () => {
  const c = await running(['sleep', '60']);
  try {
    await refused(c.changes(), 403, 'host-path');
  } finally { await c.remove({ force: true }); }
});
refusal('refused: commit claiming another container in the body', async () => {
  const c = await running(['sleep', '60']);
  try {
    await refused(dial('/commit', { container: c.id, repo: 'localhost/x' }, { container: 'other', repo: 'localhost/x' }),
      403, 'ambiguous-field');
  } finally { await c.remove({ force: true }); }
});
refusal('refused: another project\'s container is not found', async () => {
  check(args.foreign, 'no --foreign container id');
  await refused(docker.getContainer(args.foreign).kill(), 404, 'not-found');
  await refused(docker.getContainer(args.foreign).inspect(), 404, 'not-found');
});
refusal('refused: testcontainers privileged mode', () =>
  refused(new GenericContainer(IMG).withCommand(['sleep', '300']).withPrivilegedMode().start(), 403, 'privileged'));
refusal('refused: testcontainers bind mount outside the project', () =>
  refused(new GenericContainer(IMG).withCommand(['sleep', '300'])
    .withBindMounts([{ source: '/etc', target: '/host-etc' }]).start(), 403, 'bind-mount'));

(async () => {
  const only = args.only ? args.only.split(',') : null;
  for (const f of flows) {
    if (only && !only.includes(f.name)) continue;
    if (!!f.matrix !== (args.matrix === '1')) continue;
    if (f.refusal && !gateway) continue;
    const t0 = Date.now();
    try {
      await Promise.race([f.fn(), sleep(90000).then(() => { throw new Error('timed out after 90 s'); })]);
      console.log(`FLOW\t${f.name}\tok\t${Date.now() - t0}`);
    } catch (e) {
      const msg = String((e && e.json && e.json.message) || (e && e.message) || e).split('\n')[0];
      console.log(`FLOW\t${f.name}\tfail\t${Date.now() - t0}\t${msg}`);
    }
  }
  process.exit(0);
})();
