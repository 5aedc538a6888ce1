/**
 * Open redirects (the security suite, README "Set-up"): values an attacker puts in `returnurl`,
 * `redirect_uri` and `last_visited_path` (SPEC §2, §5 "Query and URL") to send the browser off the portal's
 * origin or run script there. Each keeps a `{locale}/` segment where it can, so only the off-site part is at
 * fault. `origin` is the portal's own origin, for the userinfo and lookalike-host forms.
 */
export interface HostileRedirect {
  name: string;
  value: string;
}

export function hostileRedirects(origin: string): HostileRedirect[] {
  const host = new URL(origin).host;
  const path = '/en_us/account/profile';
  return [
    { name: 'another origin', value: `https://evil.example${path}` },
    { name: 'protocol-relative', value: `//evil.example${path}` },
    { name: 'slash-backslash', value: `/\\evil.example${path}` },
    { name: 'double backslash', value: `\\\\evil.example${path}` },
    { name: 'javascript: scheme', value: 'javascript:alert(document.domain)//en_us/' },
    { name: 'data: URL', value: 'data:text/html,<script>alert(1)</script>/en_us/' },
    { name: 'encoded protocol-relative', value: `%2F%2Fevil.example${path}` },
    { name: 'root plus encoded slashes', value: `/%2F%2Fevil.example${path}` },
    { name: 'scheme without slashes', value: `https:evil.example${path}` },
    { name: 'our host as a subdomain of evil', value: `http://${host.split(':')[0]}.evil.example${path}` },
    { name: 'userinfo', value: `${origin}@evil.example${path}` },
    { name: 'userinfo on another host', value: `https://site@evil.example${path}` },
    { name: 'tab-embedded', value: `/\t/evil.example${path}` },
    { name: 'newline-embedded', value: `/\n/evil.example${path}` },
    { name: 'encoded tab', value: `/%09/evil.example${path}` },
    { name: 'fullwidth solidus lookalike', value: `/\uFF0Fevil.example${path}` },
    { name: 'division slash lookalike', value: `\u2215\u2215evil.example${path}` },
    { name: 'fullwidth dot in a lookalike origin', value: `${origin}\uFF0Eevil.example${path}` },
    { name: 'dot segments up and out', value: '/en_us/../../evil.example/en_us/account/profile' },
    { name: 'encoded dot segments', value: '/en_us/%2e%2e/%2e%2e/evil.example/en_us/' },
    { name: 'overlong', value: `${path}?q=${'a'.repeat(5_000)}` },
  ];
}
