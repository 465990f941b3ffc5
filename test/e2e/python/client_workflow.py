"""Drives an API server with the official Kubernetes Python client (Debian's python3-kubernetes).

    /usr/bin/python3 client_workflow.py KUBECONFIG NAMESPACE

Lists, creates, pages (limit/_continue), and watches ConfigMaps with the typed client and with the
dynamic client. Prints one line per check, `ok <name> <detail>`, and exits non-zero on the first failure
(its traceback on stderr). Only core/v1 objects are used, so it runs against the default API domain and
against --api-domain=k8s.io alike.
"""
import sys
import threading

from kubernetes import client, config, dynamic, watch


def ok(name, detail=""):
    print(f"ok {name} {detail}".rstrip(), flush=True)


def main(kubeconfig, ns):
    api_client = config.new_client_from_config(config_file=kubeconfig)
    v1 = client.CoreV1Api(api_client)

    # version and namespaces: the client's own models must deserialize the answers
    version = client.VersionApi(api_client).get_code()
    ok("version", version.git_version)
    names = [n.metadata.name for n in v1.list_namespace().items]
    assert "default" in names, names  # kube-system is orch-system in the default domain
    ok("list-namespaces", ",".join(sorted(names)))

    v1.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=ns)))
    ok("create-namespace", ns)

    # create 7 ConfigMaps, then page through them 3 at a time
    for i in range(7):
        cm = client.V1ConfigMap(
            metadata=client.V1ObjectMeta(name=f"page-{i}", labels={"set": "paging"}),
            data={"i": str(i)},
        )
        created = v1.create_namespaced_config_map(ns, cm)
        assert created.metadata.resource_version, created.metadata
        assert created.metadata.uid, created.metadata
    ok("create-configmaps", "7")

    seen, pages, token = [], 0, None
    while True:
        kwargs = {"label_selector": "set=paging", "limit": 3}
        if token:
            kwargs["_continue"] = token
        page = v1.list_namespaced_config_map(ns, **kwargs)
        pages += 1
        assert len(page.items) <= 3, len(page.items)
        seen += [c.metadata.name for c in page.items]
        token = page.metadata._continue
        # with a selector the count of what remains is unknown, so unset (as Kubernetes)
        assert page.metadata.remaining_item_count is None, page.metadata
        if not token:
            break
    assert seen == [f"page-{i}" for i in range(7)], seen
    assert pages == 3, pages
    ok("paging", f"{pages} pages {len(seen)} items")
    # without a selector the first page counts what remains, at the snapshot the continue token reads
    page = v1.list_namespaced_config_map(ns, limit=2)
    remaining = page.metadata.remaining_item_count
    rest = v1.list_namespaced_config_map(ns, limit=100, _continue=page.metadata._continue)
    assert len(page.items) == 2 and remaining == len(rest.items) >= 5, (page.metadata, len(rest.items))
    assert rest.metadata._continue is None and rest.metadata.resource_version == page.metadata.resource_version
    ok("paging-remaining", str(remaining))

    # typed watch: from the list's resourceVersion, see one ADDED, one MODIFIED and one DELETED
    rv = v1.list_namespaced_config_map(ns).metadata.resource_version
    w = watch.Watch()
    events = []

    def typed_writes():
        v1.create_namespaced_config_map(ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="watched"), data={"v": "1"}))
        v1.patch_namespaced_config_map("watched", ns, {"data": {"v": "2"}})
        v1.delete_namespaced_config_map("watched", ns)

    writer = threading.Timer(0.5, typed_writes)
    writer.start()
    for ev in w.stream(v1.list_namespaced_config_map, ns, resource_version=rv, timeout_seconds=30):
        obj = ev["object"]
        if obj.metadata.name != "watched":
            continue
        assert isinstance(obj, client.V1ConfigMap), type(obj)
        events.append((ev["type"], obj.data.get("v") if obj.data else None))
        if ev["type"] == "DELETED":
            w.stop()
    writer.join()
    assert [t for t, _ in events] == ["ADDED", "MODIFIED", "DELETED"], events
    assert events[1][1] == "2", events
    ok("typed-watch", " ".join(t for t, _ in events))

    # typed watch without a resourceVersion: the server's initial ADDED events for what exists
    w = watch.Watch()
    initial = []
    for ev in w.stream(v1.list_namespaced_config_map, ns, label_selector="set=paging", timeout_seconds=10):
        initial.append((ev["type"], ev["object"].metadata.name))
        if len(initial) == 7:
            w.stop()
    assert sorted(initial) == sorted(("ADDED", f"page-{i}") for i in range(7)), initial
    ok("typed-watch-initial", str(len(initial)))

    # dynamic client: discovery, get, list with paging, create, patch, watch
    dyn = dynamic.DynamicClient(api_client)
    cms = dyn.resources.get(api_version="v1", kind="ConfigMap")
    assert cms.namespaced and cms.name == "configmaps", (cms.namespaced, cms.name)
    ok("dynamic-discovery", cms.name)
    got = cms.get(name="page-3", namespace=ns)
    assert got.data.i == "3", got
    ok("dynamic-get", got.metadata.name)
    first = cms.get(namespace=ns, label_selector="set=paging", limit=4)
    assert len(first.items) == 4 and first.metadata["continue"], first.metadata
    rest = cms.get(namespace=ns, label_selector="set=paging", limit=4, _continue=first.metadata["continue"])
    assert [i.metadata.name for i in first.items + rest.items] == [f"page-{i}" for i in range(7)]
    ok("dynamic-paging", f"{len(first.items)}+{len(rest.items)}")

    rv = cms.get(namespace=ns).metadata.resourceVersion
    dyn_events = []

    def dynamic_writes():
        cms.create(body={"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "dyn"}, "data": {"v": "a"}}, namespace=ns)
        cms.patch(name="dyn", namespace=ns, body={"data": {"v": "b"}}, content_type="application/merge-patch+json")
        cms.delete(name="dyn", namespace=ns)

    writer = threading.Timer(0.5, dynamic_writes)
    writer.start()
    for ev in cms.watch(namespace=ns, resource_version=rv, timeout=30):
        obj = ev["object"]
        if obj.metadata.name != "dyn":
            continue
        dyn_events.append((ev["type"], obj.data.v))
        if ev["type"] == "DELETED":
            break
    writer.join()
    assert [t for t, _ in dyn_events] == ["ADDED", "MODIFIED", "DELETED"], dyn_events
    assert dyn_events[1][1] == "b", dyn_events
    ok("dynamic-watch", " ".join(t for t, _ in dyn_events))

    # errors arrive as ApiException with the Status reason
    try:
        v1.read_namespaced_config_map("missing", ns)
        raise AssertionError("read of a missing ConfigMap succeeded")
    except client.exceptions.ApiException as e:
        assert e.status == 404 and '"reason":"NotFound"' in e.body.replace(" ", ""), (e.status, e.body)
    try:
        v1.create_namespaced_config_map(ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="page-0")))
        raise AssertionError("duplicate create succeeded")
    except client.exceptions.ApiException as e:
        assert e.status == 409, (e.status, e.body)
    ok("errors", "404 409")

    v1.delete_namespace(ns)
    ok("delete-namespace", ns)
    print("done", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
