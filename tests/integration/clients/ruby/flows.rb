# tests/integration/clients/ruby/flows.rb - the public surface of Ruby's docker-api
# (Debian's ruby-docker-api 2.2, the client of kitchen-dokken), run by
# tests/integration/clients.sh against one socket (the backend directly, or a gateway).
# One line per flow:
#
#   FLOW<TAB><name><TAB>ok<TAB><ms>
#   FLOW<TAB><name><TAB>fail<TAB><ms><TAB><message>
#
#   ruby flows.rb --socket PATH --mode direct|gateway [--only NAME,...]
#
# Refusal flows (mode gateway only) pass when the call fails with "container-gateway: <code>".
# Every resource a flow creates carries the run's prefix and is removed by the flow.
require 'docker'
require 'json'
require 'rubygems/package'
require 'stringio'
require 'timeout'

args = Hash[ARGV.each_slice(2).map { |k, v| [k.sub(/^--/, ''), v] }]
unless args['socket'] && %w[direct gateway].include?(args['mode'])
  warn 'usage: ruby flows.rb --socket PATH --mode direct|gateway [--only A,B]'
  exit 2
end
Docker.url = "unix://#{args['socket']}"
Docker.options = { read_timeout: 60, write_timeout: 60 }
IMG = 'localhost/busybox'.freeze
PFX = "cgrb#{args['mode'][0]}#{Process.pid}".freeze
GATEWAY = args['mode'] == 'gateway'
$seq = 0
def name(what)
  $seq += 1
  "#{PFX}-#{what}-#{$seq}"
end

def check(cond, msg)
  raise msg unless cond
end

def running(cmd, extra = {})
  c = Docker::Container.create({ 'Image' => IMG, 'name' => name('c'), 'Cmd' => cmd,
                                 'Labels' => { 'cg.run' => PFX } }.merge(extra))
  c.start
  c
end

def refused(code)
  yield
rescue StandardError => e
  # a 403 reaches docker-api as Excon's error, the answer's body beside it
  msg = e.message + (e.respond_to?(:response) && e.response ? e.response.body.to_s : '')
  raise "refused otherwise: #{msg}" unless msg.include?("container-gateway: #{code}")
else
  raise "not refused (wanted #{code})"
end

FLOWS = []
def flow(n, refusal: false, &blk)
  FLOWS << [n, refusal, blk]
end

flow('docker-api version, info, ping') do
  v = Docker.version
  Docker.info
  check(Docker.ping == 'OK', 'ping')
  check(v['ApiVersion'], "version #{v}")
end

flow('docker-api container create, start, json, all, logs, remove') do
  c = running(['sh', '-c', 'echo hello-logs; exec sleep 60'])
  begin
    check(c.json['State']['Running'], 'not running')
    l = Docker::Container.all(all: true, filters: { label: ["cg.run=#{PFX}"] }.to_json)
    check(l.any? { |x| x.id == c.id }, 'not listed')
    out = ''
    50.times do
      out = c.logs(stdout: true)
      break if out.include?('hello-logs')
      sleep 0.1
    end
    check(out.include?('hello-logs'), "logs #{out.inspect}")
  ensure
    c.remove(force: true)
  end
end

flow('docker-api stop, restart, kill, wait, pause, top, stats, rename, changes, export') do
  c = running(['sh', '-c', 'touch /x; exec sleep 60'])
  begin
    c.pause
    c.unpause
    check(c.top.any?, 'top')
    check(c.stats.is_a?(Hash), 'stats')
    c.rename(name('renamed'))
    c.stop('timeout' => 1)
    # changes and export of a stopped container (advisory podman-rootfs-walk: the
    # gateway refuses them while it runs)
    check(c.changes.any?, 'changes')
    n = 0
    c.export { |chunk| n += chunk.size }
    check(n.positive?, 'export')
    c.restart('timeout' => 1)
    c.kill('signal' => 'SIGKILL')
    check(c.wait(30)['StatusCode'] == 137, 'wait')
  ensure
    c.remove(force: true)
  end
end

flow('docker-api exec, exec with stdin, Docker::Exec') do
  c = running(['sleep', '60'])
  begin
    out, _err, code = c.exec(['sh', '-c', 'echo exec-out; exit 3'])
    check(out.join.include?('exec-out') && code == 3, "exec #{out} #{code}")
    out, _err, code = c.exec(['cat'], stdin: StringIO.new("stdin-to-exec\n"))
    check(out.join.include?('stdin-to-exec') && code.zero?, "exec stdin #{out} #{code}")
    e = Docker::Exec.create('Container' => c.id, 'Cmd' => ['echo', 'exec-obj'], 'AttachStdout' => true)
    out, _err, code = e.start!
    check(out.join.include?('exec-obj') && code.zero?, "Exec #{out} #{code}")
  ensure
    c.remove(force: true)
  end
end

flow('docker-api attach with stdin') do
  c = Docker::Container.create('Image' => IMG, 'name' => name('att'), 'Cmd' => ['cat'], 'OpenStdin' => true,
                               'StdinOnce' => true, 'AttachStdin' => true, 'AttachStdout' => true)
  begin
    c.start
    out = c.attach(stdin: StringIO.new("stdin-to-attach\n"))
    check(out.flatten.join.include?('stdin-to-attach'), "attach #{out}")
  ensure
    c.remove(force: true)
  end
end

flow('docker-api store_file, read_file, archive_in, archive_out') do
  c = running(['sleep', '60'])
  begin
    c.store_file('/tmp/up.txt', 'uploaded')
    check(c.read_file('/tmp/up.txt') == 'uploaded', 'read_file')
    data = ''
    c.archive_out('/tmp/up.txt') { |chunk| data += chunk }
    check(data.include?('uploaded'), 'archive_out')
  ensure
    c.remove(force: true)
  end
end

flow('docker-api commit, image tag, json, history, remove') do
  c = running(['sh', '-c', 'echo x > /committed; exec sleep 60'])
  begin
    repo = "localhost/#{name('img')}"
    i = c.commit('repo' => repo, 'tag' => 'v1')
    i.tag('repo' => repo, 'tag' => 'v2')
    j = Docker::Image.get("#{repo}:v2").json
    check(j['Id'], 'no image')
    check(i.history.any?, 'history')
    Docker::Image.get("#{repo}:v2").remove(name: "#{repo}:v2")
    Docker::Image.get("#{repo}:v1").remove(name: "#{repo}:v1")
  ensure
    c.remove(force: true)
  end
end

flow('docker-api image all, exist, save, load, import, build, prune') do
  check(Docker::Image.all.any?, 'all')
  check(Docker::Image.exist?(IMG), 'exist?')
  tar = Docker::Image.save([IMG])
  check(tar.size.positive?, 'save')
  Docker::Image.load(StringIO.new(tar))
  ref = "localhost/#{name('imp')}"
  io = StringIO.new
  Gem::Package::TarWriter.new(io) { |t| t.add_file_simple('f.txt', 0o644, 8) { |f| f.write('imported') } }
  io.rewind
  # an import is a shared image, not the project's (decision 9): clients.sh removes it
  imp = Docker::Image.import_stream(repo: "#{ref}:1") { io.read(65_536).to_s }
  check(Docker::Image.exist?("#{ref}:1"), 'imported image')
  built = Docker::Image.build("FROM #{IMG}\nRUN echo built > /built\n", t: "localhost/#{name('built')}:1")
  check(built.id, 'build')
  built.remove(force: false)
  Docker::Image.prune
  check(imp, 'import')
end

flow('docker-api volumes: create, get, all, use, remove, prune') do
  n = name('vol')
  v = Docker::Volume.create(n, 'Labels' => { 'cg.run' => PFX })
  check(Docker::Volume.get(n).info['Name'] == n, 'get')
  check(Docker::Volume.all(filters: { label: ["cg.run=#{PFX}"] }.to_json).any? { |x| x.id == n }, 'all')
  c = running(['sleep', '60'], 'HostConfig' => { 'Binds' => ["#{n}:/data"] })
  c.remove(force: true)
  v.remove
  Docker::Volume.create(name('prunevol'))
  Docker::Volume.prune
end

flow('docker-api networks: create, get, all, connect, disconnect, remove, prune') do
  n = Docker::Network.create(name('net'), 'Labels' => { 'cg.run' => PFX })
  c = running(['sleep', '60'])
  begin
    check(Docker::Network.get(n.id).info['Name'], 'get')
    check(Docker::Network.all.any? { |x| x.id == n.id }, 'all')
    # podman 4.3.1 answers connect and disconnect with the text OK, which docker-api
    # parses as JSON; the request itself (a lower-case "container") is what is measured
    podman_ok = lambda do |&b|
      b.call
    rescue Docker::Error::UnexpectedResponseError => e
      raise unless e.message.include?("unexpected token at 'OK")
    end
    podman_ok.call { n.connect(c.id) }
    check(c.json['NetworkSettings']['Networks'].key?(n.info['Name']), 'not connected')
    podman_ok.call { n.disconnect(c.id) }
    check(!c.json['NetworkSettings']['Networks'].key?(n.info['Name']), 'not disconnected')
  ensure
    c.remove(force: true)
    n.remove
  end
  Docker::Network.prune
end

flow('docker-api containers prune') do
  c = Docker::Container.create('Image' => IMG, 'name' => name('prune'), 'Cmd' => ['true'])
  Docker::Container.prune
  check(!Docker::Container.all(all: true).any? { |x| x.id == c.id }, 'not pruned')
end

flow('docker-api event stream filtered by label') do
  lbl = "cg.ev=#{PFX}"
  got = nil
  t = Thread.new do
    Docker::Event.stream(filters: { label: [lbl], type: ['container'] }.to_json, read_timeout: 20) do |e|
      got = e if e.Action == 'start'
      break if got
    end
  rescue Docker::Error::TimeoutError
    nil
  end
  sleep 0.5
  c = running(['sleep', '60'], 'Labels' => { 'cg.ev' => PFX })
  begin
    t.join(25)
    check(got && got.id == c.id, "no start event of #{c.id[0, 12]}")
  ensure
    t.kill
    c.remove(force: true)
  end
end

flow('refused: docker-api privileged create', refusal: true) do
  refused('privileged') do
    Docker::Container.create('Image' => IMG, 'name' => name('priv'), 'HostConfig' => { 'Privileged' => true })
  end
end

flow('refused: docker-api changes and export of a running container', refusal: true) do
  c = running(['sleep', '60'])
  begin
    refused('host-path') { c.changes }
    refused('host-path') { c.export { |_| nil } }
  ensure
    c.remove(force: true)
  end
end

only = args['only']&.split(',')
FLOWS.each do |n, refusal, blk|
  next if only && !only.include?(n)
  next if refusal && !GATEWAY
  t0 = Time.now
  begin
    Timeout.timeout(90) { blk.call }
    puts "FLOW\t#{n}\tok\t#{((Time.now - t0) * 1000).to_i}"
  rescue Exception => e # rubocop:disable Lint/RescueException
    puts "FLOW\t#{n}\tfail\t#{((Time.now - t0) * 1000).to_i}\t#{e.class}: #{e.message.to_s.lines.first.to_s.chomp}"
  end
  $stdout.flush
end
