// Renders an HTML page in Debian's chromium, driven by playwright-core (which downloads no browser of its own), and
// prints as JSON what a person would see go wrong and what the page holds: console errors, uncaught exceptions,
// requests for anything but the page itself, every chart (data-chart) with its series' point counts, bars, markers,
// bars of shares and drawn size, the partitions table and the verdict. Takes a full-page screenshot. Used by the HTML
// report's render test.
//
//   node tools/render-report.mjs <page.html> <screenshot.png> [chromium path]
import { chromium } from 'playwright-core';
import { pathToFileURL } from 'node:url';

const [page, screenshot, executable] = process.argv.slice(2);
if (!page || !screenshot) {
  console.error('usage: node render-report.mjs <page.html> <screenshot.png> [chromium]');
  process.exit(2);
}

// The flags that work on the build machine: no sandbox as root, and nothing that reaches for the network by itself.
const browser = await chromium.launch({
  executablePath: executable || process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
try {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const tab = await context.newPage();
  const url = pathToFileURL(page).href;
  const consoleErrors = [];
  const pageErrors = [];
  const otherRequests = [];
  tab.on('console', message => { if (message.type() === 'error') consoleErrors.push(message.text()); });
  tab.on('pageerror', error => pageErrors.push(String(error)));
  tab.on('request', request => { if (request.url() !== url) otherRequests.push(request.url()); });
  await tab.goto(url, { waitUntil: 'load' });
  const charts = await tab.$$eval('svg[data-chart]', svgs => svgs.map(svg => {
    const box = svg.getBoundingClientRect();
    return {
      chart: svg.dataset.chart,
      series: [...svg.querySelectorAll('polyline.series')].map(line => ({
        name: line.dataset.series, reference: line.classList.contains('reference'), points: line.points.numberOfItems })),
      bars: svg.querySelectorAll('rect.bar').length,
      markers: [...svg.querySelectorAll('line.marker')].map(marker => marker.dataset.marker),
      parts: [...svg.querySelectorAll('rect[data-part]')].map(part => ({
        part: part.dataset.part, share: Number(part.dataset.share), width: part.getBoundingClientRect().width })),
      width: box.width,
      height: box.height,
    };
  }));
  const text = {
    outcome: await tab.textContent('#outcome'),
    exitCode: await tab.textContent('#exit-code'),
    reconciliation: await tab.textContent('#reconciliation'),
    rejectReasons: await tab.$$eval('tr.reject-reason', rows => rows.length),
    partitionRows: await tab.$$eval('tr.partition', rows => rows.length),
    verdict: await tab.textContent('#verdict-sentence'),
    verdictKind: await tab.$eval('#verdict-sentence', element => element.dataset.kind),
    evidence: await tab.$$eval('#verdict li[data-evidence]', items => items.map(item => item.dataset.evidence)),
    lastSection: await tab.$$eval('body > section', sections => sections.at(-1)?.id ?? null),
  };
  await tab.screenshot({ path: screenshot, fullPage: true });
  console.log(JSON.stringify({ consoleErrors, pageErrors, otherRequests, charts, text }));
} finally {
  await browser.close();
}
