// SPDX-License-Identifier: Apache-2.0
/*
 * The libvirt backend's storage (libvirt_int.h): for a URI naming another
 * machine, the kernel and initramfs uploaded into the harness's storage
 * pool and the virtio disks created there, all deleted when the VM stops.
 */
#include "vm/libvirt_conn.h"
#include "vm/libvirt_int.h"
#include "vm/libvirt_xml.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/util.h"

#ifdef HAVE_LIBVIRT
/* ---- storage: files for a remote host ---------------------------------- */


static int pool_open(struct lv *lv)
{
	struct strbuf x = STRBUF_INIT;

	lv->pool = virStoragePoolLookupByName(lv->conn, POOL_NAME);
	if (lv->pool) {
		if (!virStoragePoolIsActive(lv->pool) && virStoragePoolCreate(lv->pool, 0) < 0)
			return error("cannot start the storage pool '%s': %s", POOL_NAME, lv_last_error());
		return 0;
	}
	sb_addf(&x, "<pool type='dir'><name>%s</name><target><path>%s</path></target></pool>",
		POOL_NAME, POOL_DIR);
	lv->pool = virStoragePoolCreateXML(lv->conn, x.buf, VIR_STORAGE_POOL_CREATE_WITH_BUILD);
	sb_release(&x);
	if (!lv->pool)
		return error("cannot create the storage pool '%s' at '%s': %s", POOL_NAME,
			     POOL_DIR, lv_last_error());
	return 0;
}

static int send_file(virStreamPtr st, char *data, size_t n, void *opaque)
{
	ssize_t r = read(*(int *)opaque, data, n);

	(void)st;
	return r < 0 ? -1 : (int)r;
}

/* A volume of the file's size named NAME.what; uploads the file unless
 * empty is set (a new sparse disk).  *path: the volume's path there. */
static int volume_make(struct lv *lv, const char *file, const char *what, int empty,
		       char **path)
{
	struct stat st;
	struct strbuf xml = STRBUF_INIT;
	virStorageVolPtr vol = NULL;
	virStreamPtr s = NULL;
	char *vname = xstrfmt("%s.%s", lv->volbase, what);
	int fd = -1, r = -1;

	if (stat(file, &st) < 0) {
		error_errno("cannot stat '%s'", file);
		goto out;
	}
	if (lv_volume_xml(vname, (long long)st.st_size, &xml) < 0)
		goto out;
	vol = virStorageVolCreateXML(lv->pool, xml.buf, 0);
	if (!vol) {
		error("cannot create the volume '%s': %s", vname, lv_last_error());
		goto out;
	}
	strvec_push(&lv->vols, vname);
	if (!empty) {
		fd = open(file, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			error_errno("cannot open '%s'", file);
			goto out;
		}
		s = virStreamNew(lv->conn, 0);
		if (!s || virStorageVolUpload(vol, s, 0, (unsigned long long)st.st_size, 0) < 0 ||
		    virStreamSendAll(s, send_file, &fd) < 0 || virStreamFinish(s) < 0) {
			error("cannot upload '%s' to the volume '%s': %s", file, vname, lv_last_error());
			if (s)
				virStreamAbort(s);
			goto out;
		}
	}
	*path = virStorageVolGetPath(vol);
	if (!*path) {
		error("cannot find the path of the volume '%s': %s", vname, lv_last_error());
		goto out;
	}
	r = 0;
out:
	sb_release(&xml);
	if (s)
		virStreamFree(s);
	if (vol)
		virStorageVolFree(vol);
	if (fd >= 0)
		close(fd);
	free(vname);
	return r;
}

void lv_volumes_delete(struct lv *lv)
{
	for (size_t i = 0; lv->pool && i < lv->vols.n; i++) {
		virStorageVolPtr v = virStorageVolLookupByName(lv->pool, lv->vols.v[i]);

		if (!v || virStorageVolDelete(v, 0) < 0)
			warning("cannot delete the volume '%s' from the pool '%s': %s",
				lv->vols.v[i], POOL_NAME, lv_last_error());
		if (v)
			virStorageVolFree(v);
	}
	strvec_clear(&lv->vols);
}

/* The files of c on the libvirt host: uploaded (remote) or as they are. */
int lv_stage_files(struct lv *lv, const struct vm_config *c, struct vm_config *there,
		   struct strvec *disks, char **kernel, char **initrd)
{
	*there = *c;
	if (!c->upload && !libvirt_uri_is_remote(lv->uri))
		return 0;
	if (pool_open(lv) < 0 ||
	    volume_make(lv, c->kernel, "kernel", 0, kernel) < 0 ||
	    volume_make(lv, c->initrd, "initrd", 0, initrd) < 0)
		return -1;
	there->kernel = *kernel;
	there->initrd = *initrd;
	for (size_t i = 0; c->disks && i < c->disks->n; i++) {
		char what[32], *p = NULL;

		snprintf(what, sizeof(what), "disk%zu", i);
		if (volume_make(lv, c->disks->v[i], what, 1, &p) < 0)
			return -1;
		strvec_push(disks, p);
		free(p);
	}
	there->disks = disks;
	note("uploaded the kernel and initramfs to the pool '%s' at '%s'", POOL_NAME, lv->uri);
	return 0;
}

#endif
