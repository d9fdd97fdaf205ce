// tests/integration/clients/go/main.go - the public surface of two Go clients, run by
// tests/integration/clients.sh against one socket (the backend directly, or a gateway):
//
//   - the official Go SDK, github.com/docker/docker/client (Debian's
//     golang-github-docker-docker-dev 20.10, which compose v2 and most Go tools use);
//   - github.com/fsouza/go-dockerclient (Debian's 1.8.1) in the shapes ory/dockertest
//     sends (PublishAllPorts on every create, its exec, network and purge calls).
//
// Built in GOPATH mode (GO111MODULE=off, GOPATH=<tmp>:/usr/share/gocode). One line per flow:
//
//	FLOW<TAB><name><TAB>ok<TAB><ms>
//	FLOW<TAB><name><TAB>fail<TAB><ms><TAB><message>
//
//	clients-go --socket PATH --mode direct|gateway --client gosdk|dockerclient [--only NAME,...]
//
// Refusal flows (mode gateway only) pass when the call fails with "container-gateway: <code>".
// Every resource a flow creates carries the run's prefix and is removed by the flow.
package main

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/ioutil"
	"os"
	"strings"
	"time"

	"github.com/docker/docker/api/types"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/network"
	volumetypes "github.com/docker/docker/api/types/volume"
	"github.com/docker/docker/client"
	"github.com/docker/docker/pkg/stdcopy"
	dc "github.com/fsouza/go-dockerclient"
)

const img = "localhost/busybox"

var (
	sock, mode, only, which string
	pfx                     string
	seq                     int
	ctx                     = context.Background()
	sdk                     *client.Client
	dkc                     *dc.Client
)

type flow struct {
	name    string
	refusal bool
	fn      func() error
}

func name(what string) string { seq++; return fmt.Sprintf("%s-%s-%d", pfx, what, seq) }

func check(cond bool, format string, a ...interface{}) error {
	if !cond {
		return fmt.Errorf(format, a...)
	}
	return nil
}

// first returns the first non-nil error.
func first(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// refused: err must be the gateway's refusal with code.
func refused(err error, code string) error {
	if err == nil {
		return fmt.Errorf("not refused (wanted %s)", code)
	}
	if !strings.Contains(err.Error(), "container-gateway: "+code) {
		return fmt.Errorf("refused otherwise: %v", err)
	}
	return nil
}

func tarOf(file, content string) *bytes.Buffer {
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	tw.WriteHeader(&tar.Header{Name: file, Mode: 0644, Size: int64(len(content))})
	tw.Write([]byte(content))
	tw.Close()
	return &b
}

func untarFirst(r io.Reader) (string, error) {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err != nil {
			return "", err
		}
		if h.Typeflag == tar.TypeReg {
			b, err := ioutil.ReadAll(tr)
			return string(b), err
		}
	}
}

// ---- the Go SDK -------------------------------------------------------------------

func sdkRunning(cmd []string, cfg func(*container.Config, *container.HostConfig)) (string, error) {
	c := &container.Config{Image: img, Cmd: cmd, Labels: map[string]string{"cg.run": pfx}}
	h := &container.HostConfig{}
	if cfg != nil {
		cfg(c, h)
	}
	r, err := sdk.ContainerCreate(ctx, c, h, nil, nil, name("c"))
	if err != nil {
		return "", err
	}
	return r.ID, sdk.ContainerStart(ctx, r.ID, types.ContainerStartOptions{})
}

func sdkRm(id string) error {
	return sdk.ContainerRemove(ctx, id, types.ContainerRemoveOptions{Force: true, RemoveVolumes: true})
}

func sdkLogs(id string) (string, error) {
	rc, err := sdk.ContainerLogs(ctx, id, types.ContainerLogsOptions{ShowStdout: true, ShowStderr: true})
	if err != nil {
		return "", err
	}
	defer rc.Close()
	var out bytes.Buffer
	_, err = stdcopy.StdCopy(&out, &out, rc)
	return out.String(), err
}

func sdkFlows() []flow {
	d := func(t time.Duration) *time.Duration { return &t }
	return []flow{
		{"gosdk system: ping, version, info, disk usage", false, func() error {
			p, err := sdk.Ping(ctx)
			if err != nil {
				return err
			}
			v, err := sdk.ServerVersion(ctx)
			if err != nil {
				return err
			}
			if _, err = sdk.Info(ctx); err != nil {
				return err
			}
			if _, err = sdk.DiskUsage(ctx); err != nil {
				return err
			}
			return check(p.APIVersion != "" && v.APIVersion != "", "ping %+v version %+v", p, v)
		}},
		{"gosdk container create, start, inspect, list, logs, remove", false, func() error {
			id, err := sdkRunning([]string{"sh", "-c", "echo hello-logs; exec sleep 60"}, nil)
			if err != nil {
				return err
			}
			defer sdkRm(id)
			i, err := sdk.ContainerInspect(ctx, id)
			if err != nil {
				return err
			}
			l, err := sdk.ContainerList(ctx, types.ContainerListOptions{All: true,
				Filters: filters.NewArgs(filters.Arg("label", "cg.run="+pfx))})
			if err != nil {
				return err
			}
			var out string
			for k := 0; k < 50 && !strings.Contains(out, "hello-logs"); k++ {
				if out, err = sdkLogs(id); err != nil {
					return err
				}
				time.Sleep(100 * time.Millisecond)
			}
			found := false
			for _, c := range l {
				found = found || c.ID == id
			}
			return first(check(i.State.Running, "not running"), check(found, "not listed"),
				check(strings.Contains(out, "hello-logs"), "logs %q", out))
		}},
		{"gosdk container stop, restart, kill, wait", false, func() error {
			id, err := sdkRunning([]string{"sleep", "60"}, nil)
			if err != nil {
				return err
			}
			defer sdkRm(id)
			if err = sdk.ContainerStop(ctx, id, d(time.Second)); err != nil {
				return err
			}
			if err = sdk.ContainerRestart(ctx, id, d(time.Second)); err != nil {
				return err
			}
			wc, ec := sdk.ContainerWait(ctx, id, container.WaitConditionNotRunning)
			if err = sdk.ContainerKill(ctx, id, "SIGKILL"); err != nil {
				return err
			}
			select {
			case w := <-wc:
				return check(w.StatusCode == 137, "wait: %+v", w)
			case err = <-ec:
				return err
			case <-time.After(30 * time.Second):
				return errors.New("wait did not return")
			}
		}},
		{"gosdk container rename, pause, unpause, top, stats, resize, diff, export", false, func() error {
			id, err := sdkRunning([]string{"sh", "-c", "touch /x; exec sleep 60"}, func(c *container.Config, h *container.HostConfig) {
				c.Tty = true
				c.OpenStdin = true
			})
			if err != nil {
				return err
			}
			defer sdkRm(id)
			if err = sdk.ContainerRename(ctx, id, name("renamed")); err != nil {
				return err
			}
			if err = first(sdk.ContainerPause(ctx, id), sdk.ContainerUnpause(ctx, id)); err != nil {
				return err
			}
			t, err := sdk.ContainerTop(ctx, id, nil)
			if err != nil {
				return err
			}
			s, err := sdk.ContainerStats(ctx, id, false)
			if err != nil {
				return err
			}
			s.Body.Close()
			if s, err = sdk.ContainerStatsOneShot(ctx, id); err != nil {
				return err
			}
			s.Body.Close()
			if err = sdk.ContainerResize(ctx, id, types.ResizeOptions{Height: 30, Width: 100}); err != nil {
				return err
			}
			// diff and export of a stopped container (advisory podman-rootfs-walk:
			// the gateway refuses them while the container runs)
			if err = sdk.ContainerStop(ctx, id, d(time.Second)); err != nil {
				return err
			}
			ch, err := sdk.ContainerDiff(ctx, id)
			if err != nil {
				return err
			}
			rc, err := sdk.ContainerExport(ctx, id)
			if err != nil {
				return err
			}
			n, _ := io.Copy(ioutil.Discard, rc)
			rc.Close()
			return first(check(len(t.Processes) > 0, "top: %+v", t), check(len(ch) > 0, "diff empty"),
				check(n > 0, "export empty"))
		}},
		{"gosdk container update", false, func() error {
			id, err := sdkRunning([]string{"sleep", "60"}, nil)
			if err != nil {
				return err
			}
			defer sdkRm(id)
			_, err = sdk.ContainerUpdate(ctx, id, container.UpdateConfig{RestartPolicy: container.RestartPolicy{Name: "no"},
				Resources: container.Resources{PidsLimit: func(n int64) *int64 { return &n }(100)}})
			return err
		}},
		{"gosdk container attach with stdin", false, func() error {
			r, err := sdk.ContainerCreate(ctx, &container.Config{Image: img, Cmd: []string{"cat"}, OpenStdin: true,
				StdinOnce: true, AttachStdin: true, AttachStdout: true, AttachStderr: true}, nil, nil, nil, name("att"))
			if err != nil {
				return err
			}
			defer sdkRm(r.ID)
			hj, err := sdk.ContainerAttach(ctx, r.ID, types.ContainerAttachOptions{Stream: true, Stdin: true, Stdout: true, Stderr: true})
			if err != nil {
				return err
			}
			defer hj.Close()
			if err = sdk.ContainerStart(ctx, r.ID, types.ContainerStartOptions{}); err != nil {
				return err
			}
			hj.Conn.Write([]byte("stdin-to-attach\n"))
			hj.CloseWrite()
			var out bytes.Buffer
			stdcopy.StdCopy(&out, &out, hj.Reader)
			return check(strings.Contains(out.String(), "stdin-to-attach"), "out %q", out.String())
		}},
		{"gosdk exec create, attach, start detached, inspect", false, func() error {
			id, err := sdkRunning([]string{"sleep", "60"}, nil)
			if err != nil {
				return err
			}
			defer sdkRm(id)
			e, err := sdk.ContainerExecCreate(ctx, id, types.ExecConfig{Cmd: []string{"cat"}, AttachStdin: true,
				AttachStdout: true, AttachStderr: true})
			if err != nil {
				return err
			}
			hj, err := sdk.ContainerExecAttach(ctx, e.ID, types.ExecStartCheck{})
			if err != nil {
				return err
			}
			hj.Conn.Write([]byte("stdin-to-exec\n"))
			hj.CloseWrite()
			var out bytes.Buffer
			stdcopy.StdCopy(&out, &out, hj.Reader)
			hj.Close()
			ei, err := sdk.ContainerExecInspect(ctx, e.ID)
			if err != nil {
				return err
			}
			e2, err := sdk.ContainerExecCreate(ctx, id, types.ExecConfig{Cmd: []string{"sh", "-c", "echo d > /tmp/detached"}})
			if err != nil {
				return err
			}
			if err = sdk.ContainerExecStart(ctx, e2.ID, types.ExecStartCheck{Detach: true}); err != nil {
				return err
			}
			for k := 0; k < 200; k++ {
				if _, err = sdk.ContainerStatPath(ctx, id, "/tmp/detached"); err == nil {
					break
				}
				time.Sleep(50 * time.Millisecond)
			}
			return first(err, check(strings.Contains(out.String(), "stdin-to-exec"), "out %q", out.String()),
				check(ei.ExitCode == 0, "exit %d", ei.ExitCode))
		}},
		{"gosdk archive copy in, out, stat", false, func() error {
			id, err := sdkRunning([]string{"sleep", "60"}, nil)
			if err != nil {
				return err
			}
			defer sdkRm(id)
			if err = sdk.CopyToContainer(ctx, id, "/tmp", tarOf("up.txt", "uploaded"), types.CopyToContainerOptions{}); err != nil {
				return err
			}
			rc, st, err := sdk.CopyFromContainer(ctx, id, "/tmp/up.txt")
			if err != nil {
				return err
			}
			got, err := untarFirst(rc)
			rc.Close()
			if err != nil {
				return err
			}
			st2, err := sdk.ContainerStatPath(ctx, id, "/tmp/up.txt")
			return first(err, check(got == "uploaded", "got %q", got), check(st.Name == "up.txt" && st2.Size == 8, "stat %+v %+v", st, st2))
		}},
		{"gosdk commit with changes, image tag, inspect, history, remove", false, func() error {
			id, err := sdkRunning([]string{"sh", "-c", "echo x > /committed; exec sleep 60"}, nil)
			if err != nil {
				return err
			}
			defer sdkRm(id)
			ref := "localhost/" + name("img") + ":v1"
			r, err := sdk.ContainerCommit(ctx, id, types.ContainerCommitOptions{Reference: ref, Comment: "c", Author: "a",
				Changes: []string{"ENV A=1", "LABEL cg.run=", "CMD [\"sh\"]"}, Pause: true})
			if err != nil {
				return err
			}
			defer sdk.ImageRemove(ctx, r.ID, types.ImageRemoveOptions{})
			tagged := strings.Replace(ref, ":v1", ":v2", 1)
			if err = sdk.ImageTag(ctx, ref, tagged); err != nil {
				return err
			}
			ii, _, err := sdk.ImageInspectWithRaw(ctx, tagged)
			if err != nil {
				return err
			}
			h, err := sdk.ImageHistory(ctx, ref)
			if err != nil {
				return err
			}
			if _, err = sdk.ImageRemove(ctx, tagged, types.ImageRemoveOptions{}); err != nil {
				return err
			}
			_, err = sdk.ImageRemove(ctx, ref, types.ImageRemoveOptions{})
			return first(err, check(ii.Config.Labels["cg.run"] == "", "label %q", ii.Config.Labels["cg.run"]), check(len(h) > 0, "history"))
		}},
		{"gosdk image list, save, load, import, build, prune", false, func() error {
			l, err := sdk.ImageList(ctx, types.ImageListOptions{})
			if err != nil {
				return err
			}
			rc, err := sdk.ImageSave(ctx, []string{img})
			if err != nil {
				return err
			}
			saved, err := ioutil.ReadAll(rc)
			rc.Close()
			if err != nil {
				return err
			}
			lr, err := sdk.ImageLoad(ctx, bytes.NewReader(saved), true)
			if err != nil {
				return err
			}
			io.Copy(ioutil.Discard, lr.Body)
			lr.Body.Close()
			ref := "localhost/" + name("imp") + ":1"
			ir, err := sdk.ImageImport(ctx, types.ImageImportSource{Source: tarOf("f.txt", "imported"), SourceName: "-"}, ref,
				types.ImageImportOptions{Changes: []string{"LABEL cg.imp=1"}})
			if err != nil {
				return err
			}
			io.Copy(ioutil.Discard, ir)
			ir.Close()
			defer sdk.ImageRemove(ctx, ref, types.ImageRemoveOptions{})
			var ctxb bytes.Buffer
			tw := tar.NewWriter(&ctxb)
			df := "FROM " + img + "\nRUN echo built > /built\n"
			tw.WriteHeader(&tar.Header{Name: "Dockerfile", Mode: 0644, Size: int64(len(df))})
			tw.Write([]byte(df))
			tw.Close()
			bref := "localhost/" + name("built") + ":1"
			br, err := sdk.ImageBuild(ctx, &ctxb, types.ImageBuildOptions{Tags: []string{bref}, Remove: true, Version: types.BuilderV1})
			if err != nil {
				return err
			}
			bout, _ := ioutil.ReadAll(br.Body)
			br.Body.Close()
			defer sdk.ImageRemove(ctx, bref, types.ImageRemoveOptions{})
			if _, _, err = sdk.ImageInspectWithRaw(ctx, bref); err != nil {
				return fmt.Errorf("built image: %v (%s)", err, bytes.TrimSpace(bout))
			}
			if _, err = sdk.ImagesPrune(ctx, filters.NewArgs()); err != nil {
				return err
			}
			return check(len(l) > 0 && len(saved) > 0, "list %d, saved %d bytes", len(l), len(saved))
		}},
		{"gosdk volumes: create, inspect, list, use, remove, prune", false, func() error {
			n := name("vol")
			v, err := sdk.VolumeCreate(ctx, volumetypes.VolumeCreateBody{Name: n, Labels: map[string]string{"cg.run": pfx}})
			if err != nil {
				return err
			}
			if _, err = sdk.VolumeInspect(ctx, n); err != nil {
				return err
			}
			l, err := sdk.VolumeList(ctx, filters.NewArgs(filters.Arg("label", "cg.run="+pfx)))
			if err != nil {
				return err
			}
			id, err := sdkRunning([]string{"sleep", "60"}, func(c *container.Config, h *container.HostConfig) {
				h.Binds = []string{n + ":/data"}
			})
			if err != nil {
				return err
			}
			sdkRm(id)
			if err = sdk.VolumeRemove(ctx, n, false); err != nil {
				return err
			}
			pv := name("prunevol")
			if _, err = sdk.VolumeCreate(ctx, volumetypes.VolumeCreateBody{Name: pv}); err != nil {
				return err
			}
			pr, err := sdk.VolumesPrune(ctx, filters.NewArgs())
			if err != nil {
				return err
			}
			pruned := false
			for _, x := range pr.VolumesDeleted {
				pruned = pruned || x == pv
			}
			return first(check(v.Name == n && len(l.Volumes) == 1, "volume %+v list %d", v, len(l.Volumes)), check(pruned, "not pruned: %+v", pr))
		}},
		{"gosdk networks: create, inspect, list, connect, disconnect, remove, prune", false, func() error {
			n := name("net")
			r, err := sdk.NetworkCreate(ctx, n, types.NetworkCreate{CheckDuplicate: true, Labels: map[string]string{"cg.run": pfx}})
			if err != nil {
				return err
			}
			defer sdk.NetworkRemove(ctx, r.ID)
			ni, err := sdk.NetworkInspect(ctx, r.ID, types.NetworkInspectOptions{})
			if err != nil {
				return err
			}
			l, err := sdk.NetworkList(ctx, types.NetworkListOptions{Filters: filters.NewArgs(filters.Arg("label", "cg.run="+pfx))})
			if err != nil {
				return err
			}
			id, err := sdkRunning([]string{"sleep", "60"}, nil)
			if err != nil {
				return err
			}
			defer sdkRm(id)
			if err = sdk.NetworkConnect(ctx, n, id, &network.EndpointSettings{Aliases: []string{"al"}}); err != nil {
				return err
			}
			if err = sdk.NetworkDisconnect(ctx, n, id, true); err != nil {
				return err
			}
			if err = sdk.NetworkRemove(ctx, n); err != nil {
				return err
			}
			if _, err = sdk.NetworksPrune(ctx, filters.NewArgs()); err != nil {
				return err
			}
			return check(ni.Name == n && len(l) == 1, "inspect %s list %d", ni.Name, len(l))
		}},
		{"gosdk containers prune", false, func() error {
			r, err := sdk.ContainerCreate(ctx, &container.Config{Image: img, Cmd: []string{"true"}}, nil, nil, nil, name("prune"))
			if err != nil {
				return err
			}
			pr, err := sdk.ContainersPrune(ctx, filters.NewArgs())
			if err != nil {
				return err
			}
			pruned := false
			for _, x := range pr.ContainersDeleted {
				pruned = pruned || x == r.ID
			}
			return check(pruned, "not pruned: %+v", pr)
		}},
		{"gosdk events filtered by label", false, func() error {
			lbl := "cg.ev=" + pfx
			cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			msgs, errs := sdk.Events(cctx, types.EventsOptions{Filters: filters.NewArgs(filters.Arg("label", lbl),
				filters.Arg("type", "container"))})
			time.Sleep(300 * time.Millisecond)
			other, err := sdkRunning([]string{"true"}, nil)
			if err != nil {
				return err
			}
			defer sdkRm(other)
			id, err := sdkRunning([]string{"sleep", "60"}, func(c *container.Config, h *container.HostConfig) { c.Labels["cg.ev"] = pfx })
			if err != nil {
				return err
			}
			defer sdkRm(id)
			for {
				select {
				case m := <-msgs:
					if m.Actor.ID == other {
						return fmt.Errorf("an event of a container without the label: %s", m.Action)
					}
					if m.Actor.ID == id && m.Action == "start" {
						return nil
					}
				case err = <-errs:
					return err
				}
			}
		}},
		{"refused: gosdk privileged create", true, func() error {
			_, err := sdk.ContainerCreate(ctx, &container.Config{Image: img}, &container.HostConfig{Privileged: true}, nil, nil, name("priv"))
			return refused(err, "privileged")
		}},
		{"refused: gosdk diff and export of a running container", true, func() error {
			id, err := sdkRunning([]string{"sleep", "60"}, nil)
			if err != nil {
				return err
			}
			defer sdkRm(id)
			_, err2 := sdk.ContainerDiff(ctx, id)
			rc, err3 := sdk.ContainerExport(ctx, id)
			if err3 == nil {
				rc.Close()
			}
			return first(refused(err2, "host-path"), refused(err3, "host-path"))
		}},
		{"refused: gosdk bind of a host directory", true, func() error {
			_, err := sdk.ContainerCreate(ctx, &container.Config{Image: img}, &container.HostConfig{Binds: []string{"/etc:/h"}}, nil, nil, name("bind"))
			return refused(err, "bind-mount")
		}},
	}
}

// ---- go-dockerclient, as ory/dockertest uses it -------------------------------------

func dkcRm(id string) error {
	return dkc.RemoveContainer(dc.RemoveContainerOptions{ID: id, Force: true, RemoveVolumes: true})
}

// dockertestRun: the calls of dockertest's Pool.RunWithOptions and Resource.GetPort.
func dockertestRun(port string, cmd []string, netID string) (*dc.Container, error) {
	exp := map[dc.Port]struct{}{}
	if port != "" {
		exp[dc.Port(port)] = struct{}{}
	}
	nc := dc.NetworkingConfig{EndpointsConfig: map[string]*dc.EndpointConfig{}}
	if netID != "" {
		nc.EndpointsConfig[netID] = &dc.EndpointConfig{}
	}
	c, err := dkc.CreateContainer(dc.CreateContainerOptions{
		Name: name("dt"),
		Config: &dc.Config{Image: img + ":latest", Cmd: cmd, ExposedPorts: exp, StopSignal: "SIGWINCH",
			Labels: map[string]string{"cg.run": pfx}},
		HostConfig:       &dc.HostConfig{PublishAllPorts: true},
		NetworkingConfig: &nc,
	})
	if err != nil {
		return nil, err
	}
	if err = dkc.StartContainer(c.ID, nil); err != nil {
		dkcRm(c.ID)
		return nil, err
	}
	if c, err = dkc.InspectContainerWithOptions(dc.InspectContainerOptions{ID: c.ID}); err != nil {
		return nil, err
	}
	return c, nil
}

func dkcFlows() []flow {
	return []flow{
		{"dockerclient ping, version, info", false, func() error {
			if err := dkc.Ping(); err != nil {
				return err
			}
			v, err := dkc.Version()
			if err != nil {
				return err
			}
			_, err = dkc.Info()
			return first(err, check(v.Get("ApiVersion") != "", "version %+v", v))
		}},
		{"dockerclient dockertest RunWithOptions: PublishAllPorts, GetPort, exec, purge", false, func() error {
			c, err := dockertestRun("8080/tcp", []string{"sh", "-c", "echo hi > /tmp/index.html; exec httpd -f -p 8080 -h /tmp"}, "")
			if err != nil {
				return err
			}
			defer dkcRm(c.ID)
			b := c.NetworkSettings.Ports["8080/tcp"]
			if len(b) == 0 || b[0].HostPort == "" || b[0].HostPort == "0" {
				return fmt.Errorf("no host port for 8080/tcp: %+v", c.NetworkSettings.Ports)
			}
			if mode == "gateway" && b[0].HostIP != "127.0.0.1" {
				return fmt.Errorf("host ip %q through the gateway", b[0].HostIP)
			}
			e, err := dkc.CreateExec(dc.CreateExecOptions{Container: c.ID, Cmd: []string{"cat", "/tmp/index.html"},
				AttachStdout: true, AttachStderr: true})
			if err != nil {
				return err
			}
			var out bytes.Buffer
			if err = dkc.StartExec(e.ID, dc.StartExecOptions{OutputStream: &out, ErrorStream: &out}); err != nil {
				return err
			}
			ei, err := dkc.InspectExec(e.ID)
			if err != nil {
				return err
			}
			return first(check(strings.Contains(out.String(), "hi"), "exec out %q", out.String()), check(ei.ExitCode == 0, "exit %d", ei.ExitCode))
		}},
		{"dockerclient exec with stdin", false, func() error {
			c, err := dockertestRun("", []string{"sleep", "60"}, "")
			if err != nil {
				return err
			}
			defer dkcRm(c.ID)
			e, err := dkc.CreateExec(dc.CreateExecOptions{Container: c.ID, Cmd: []string{"cat"}, AttachStdin: true,
				AttachStdout: true, AttachStderr: true})
			if err != nil {
				return err
			}
			var out bytes.Buffer
			err = dkc.StartExec(e.ID, dc.StartExecOptions{InputStream: strings.NewReader("stdin-to-exec\n"), OutputStream: &out, ErrorStream: &out})
			return first(err, check(strings.Contains(out.String(), "stdin-to-exec"), "out %q", out.String()))
		}},
		{"dockerclient dockertest network: create, run on it with PublishAllPorts, connect, disconnect, remove", false, func() error {
			n, err := dkc.CreateNetwork(dc.CreateNetworkOptions{Name: name("net"), Labels: map[string]string{"cg.run": pfx}})
			if err != nil {
				return err
			}
			defer dkc.RemoveNetwork(n.ID)
			// on a network: PublishAllPorts publishes on every backend (the private
			// dockerd's default network has none)
			c, err := dockertestRun("8080/tcp", []string{"sleep", "60"}, n.ID)
			if err != nil {
				return err
			}
			defer dkcRm(c.ID)
			// directly the daemon binds every address; through the gateway only 127.0.0.1
			if b := c.NetworkSettings.Ports["8080/tcp"]; len(b) == 0 || b[0].HostPort == "" ||
				(mode == "gateway" && b[0].HostIP != "127.0.0.1") {
				return fmt.Errorf("8080/tcp not published (on 127.0.0.1 through the gateway): %+v", c.NetworkSettings.Ports)
			}
			o, err := dockertestRun("", []string{"sleep", "60"}, "")
			if err != nil {
				return err
			}
			defer dkcRm(o.ID)
			if err = dkc.ConnectNetwork(n.ID, dc.NetworkConnectionOptions{Container: o.ID}); err != nil {
				return err
			}
			if err = dkc.DisconnectNetwork(n.ID, dc.NetworkConnectionOptions{Container: o.ID, Force: true}); err != nil {
				return err
			}
			ni, err := dkc.NetworkInfo(n.ID)
			if err != nil {
				return err
			}
			if _, err = dkc.ListNetworks(); err != nil {
				return err
			}
			dkcRm(c.ID)
			return first(dkc.RemoveNetwork(n.ID), check(ni.Name == n.Name, "info %s", ni.Name))
		}},
		{"dockerclient containers: list, logs, stop, restart, kill, wait, pause, top, stats, rename, resize", false, func() error {
			c, err := dockertestRun("", []string{"sh", "-c", "echo hello-logs; exec sleep 60"}, "")
			if err != nil {
				return err
			}
			defer dkcRm(c.ID)
			l, err := dkc.ListContainers(dc.ListContainersOptions{All: true, Filters: map[string][]string{"label": {"cg.run=" + pfx}}})
			if err != nil {
				return err
			}
			var out bytes.Buffer
			for k := 0; k < 50 && !strings.Contains(out.String(), "hello-logs"); k++ {
				out.Reset()
				if err = dkc.Logs(dc.LogsOptions{Container: c.ID, OutputStream: &out, ErrorStream: &out, Stdout: true, Stderr: true}); err != nil {
					return err
				}
				time.Sleep(100 * time.Millisecond)
			}
			if err = first(dkc.PauseContainer(c.ID), dkc.UnpauseContainer(c.ID)); err != nil {
				return err
			}
			t, err := dkc.TopContainer(c.ID, "")
			if err != nil {
				return err
			}
			stats := make(chan *dc.Stats, 2)
			if err = dkc.Stats(dc.StatsOptions{ID: c.ID, Stats: stats, Stream: false, Timeout: 20 * time.Second}); err != nil {
				return err
			}
			if err = dkc.RenameContainer(dc.RenameContainerOptions{ID: c.ID, Name: name("renamed")}); err != nil {
				return err
			}
			if err = first(dkc.StopContainer(c.ID, 1), dkc.RestartContainer(c.ID, 1)); err != nil {
				return err
			}
			if err = dkc.KillContainer(dc.KillContainerOptions{ID: c.ID, Signal: dc.SIGKILL}); err != nil {
				return err
			}
			code, err := dkc.WaitContainer(c.ID)
			return first(err, check(len(l) >= 1, "list %d", len(l)), check(strings.Contains(out.String(), "hello-logs"), "logs %q", out.String()),
				check(len(t.Processes) > 0, "top"), check(code == 137, "wait %d", code))
		}},
		{"dockerclient upload, download, commit, image inspect, tag, remove, export, load", false, func() error {
			c, err := dockertestRun("", []string{"sleep", "60"}, "")
			if err != nil {
				return err
			}
			defer dkcRm(c.ID)
			if err = dkc.UploadToContainer(c.ID, dc.UploadToContainerOptions{InputStream: tarOf("up.txt", "uploaded"), Path: "/tmp"}); err != nil {
				return err
			}
			var tb bytes.Buffer
			if err = dkc.DownloadFromContainer(c.ID, dc.DownloadFromContainerOptions{OutputStream: &tb, Path: "/tmp/up.txt"}); err != nil {
				return err
			}
			got, err := untarFirst(&tb)
			if err != nil {
				return err
			}
			repo := "localhost/" + name("img")
			im, err := dkc.CommitContainer(dc.CommitContainerOptions{Container: c.ID, Repository: repo, Tag: "v1", Message: "m", Author: "a"})
			if err != nil {
				return err
			}
			defer dkc.RemoveImage(im.ID)
			if err = dkc.TagImage(repo+":v1", dc.TagImageOptions{Repo: repo, Tag: "v2"}); err != nil {
				return err
			}
			if _, err = dkc.InspectImage(repo + ":v2"); err != nil {
				return err
			}
			if _, err = dkc.ImageHistory(repo + ":v1"); err != nil {
				return err
			}
			if _, err = dkc.ListImages(dc.ListImagesOptions{}); err != nil {
				return err
			}
			var saved bytes.Buffer
			if err = dkc.ExportImage(dc.ExportImageOptions{Name: repo + ":v1", OutputStream: &saved}); err != nil {
				return err
			}
			if err = dkc.LoadImage(dc.LoadImageOptions{InputStream: bytes.NewReader(saved.Bytes())}); err != nil {
				return err
			}
			if err = dkc.RemoveImage(repo + ":v2"); err != nil {
				return err
			}
			return first(dkc.RemoveImage(repo+":v1"), check(got == "uploaded", "got %q", got))
		}},
		{"dockerclient volumes and prunes", false, func() error {
			n := name("vol")
			if _, err := dkc.CreateVolume(dc.CreateVolumeOptions{Name: n, Labels: map[string]string{"cg.run": pfx}}); err != nil {
				return err
			}
			if _, err := dkc.InspectVolume(n); err != nil {
				return err
			}
			l, err := dkc.ListVolumes(dc.ListVolumesOptions{Filters: map[string][]string{"label": {"cg.run=" + pfx}}})
			if err != nil {
				return err
			}
			if err = dkc.RemoveVolumeWithOptions(dc.RemoveVolumeOptions{Name: n}); err != nil {
				return err
			}
			if _, err = dkc.PruneVolumes(dc.PruneVolumesOptions{}); err != nil {
				return err
			}
			if _, err = dkc.PruneContainers(dc.PruneContainersOptions{}); err != nil {
				return err
			}
			if _, err = dkc.PruneNetworks(dc.PruneNetworksOptions{}); err != nil {
				return err
			}
			_, err = dkc.PruneImages(dc.PruneImagesOptions{})
			return first(err, check(len(l) == 1, "volumes listed %d", len(l)))
		}},
		{"dockerclient event listener", false, func() error {
			ch := make(chan *dc.APIEvents, 64)
			if err := dkc.AddEventListenerWithOptions(dc.EventsOptions{Filters: map[string][]string{"type": {"container"}}}, ch); err != nil {
				return err
			}
			defer dkc.RemoveEventListener(ch)
			time.Sleep(300 * time.Millisecond)
			c, err := dockertestRun("", []string{"sleep", "60"}, "")
			if err != nil {
				return err
			}
			defer dkcRm(c.ID)
			timeout := time.After(30 * time.Second)
			for {
				select {
				case e := <-ch:
					if e != nil && e.Actor.ID == c.ID && e.Action == "start" {
						return nil
					}
				case <-timeout:
					return errors.New("no start event within 30 s")
				}
			}
		}},
		{"refused: dockerclient privileged create", true, func() error {
			_, err := dkc.CreateContainer(dc.CreateContainerOptions{Name: name("priv"), Config: &dc.Config{Image: img},
				HostConfig: &dc.HostConfig{Privileged: true}})
			return refused(err, "privileged")
		}},
	}
}

func main() {
	flag.StringVar(&sock, "socket", "", "socket path")
	flag.StringVar(&mode, "mode", "", "direct|gateway")
	flag.StringVar(&which, "client", "gosdk", "gosdk|dockerclient")
	flag.StringVar(&only, "only", "", "flow names, comma-separated")
	flag.Parse()
	if sock == "" || (mode != "direct" && mode != "gateway") {
		fmt.Fprintln(os.Stderr, "usage: clients-go --socket PATH --mode direct|gateway --client gosdk|dockerclient")
		os.Exit(2)
	}
	pfx = fmt.Sprintf("cgcl%c%d", mode[0], os.Getpid())
	var err error
	var flows []flow
	switch which {
	case "gosdk":
		sdk, err = client.NewClientWithOpts(client.WithHost("unix://"+sock), client.WithAPIVersionNegotiation())
		flows = sdkFlows()
	case "dockerclient":
		dkc, err = dc.NewClient("unix://" + sock)
		flows = dkcFlows()
	default:
		err = fmt.Errorf("unknown client %q", which)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	for _, f := range flows {
		if only != "" && !strings.Contains(","+only+",", ","+f.name+",") {
			continue
		}
		if f.refusal && mode != "gateway" {
			continue
		}
		t0 := time.Now()
		done := make(chan error, 1)
		go func(f flow) { done <- f.fn() }(f)
		select {
		case err = <-done:
		case <-time.After(90 * time.Second):
			err = errors.New("timed out after 90 s")
		}
		ms := time.Since(t0).Milliseconds()
		if err == nil {
			fmt.Printf("FLOW\t%s\tok\t%d\n", f.name, ms)
		} else {
			fmt.Printf("FLOW\t%s\tfail\t%d\t%s\n", f.name, ms, strings.SplitN(err.Error(), "\n", 2)[0])
		}
	}
}
