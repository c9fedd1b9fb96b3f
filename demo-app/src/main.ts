// Placeholder entry of the product app: shows that the page is served by a live Parley server.
const target = document.querySelector('#health');

async function showHealth(): Promise<void> {
  if (!target) return;
  try {
    const response = await fetch('/health');
    const body = (await response.json()) as { status?: string };
    target.textContent = body.status ?? 'unknown';
  } catch {
    target.textContent = 'unreachable';
  }
}

void showHealth();
