// The emulator answers this machine only: a web page can reach a loopback port too (by DNS
// rebinding, or a plain cross-origin POST), and must not read answers or drive the control routes.

/** 127.0.0.0/8, ::1, localhost and its subdomains (which browsers keep on this machine) */
function loopbackName(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '[::1]' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** The host name of a Host header that names another machine; undefined for this one (or none: HTTP/1.0). */
export function foreignHost(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const hostname = header.replace(/:\d*$/, '');
  return loopbackName(hostname) ? undefined : hostname;
}

/** Whether an Origin header names a page served elsewhere than this machine. */
export function foreignOrigin(origin: string | undefined): boolean {
  if (origin === undefined) return false;
  try {
    return !loopbackName(new URL(origin).hostname);
  } catch {
    return true; // `null` (a sandboxed page, a file) or garbage
  }
}
