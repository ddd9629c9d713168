/**
 * A self-contained API reference page: it renders /openapi.json in the browser with a few lines of
 * script, so it works offline (no CDN), as the service itself does.
 */
export const docsPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Spatial-RAG API reference</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:960px;padding:1rem;color:#1d2430}
h1{font-size:1.5rem}h2{font-size:1.1rem;margin-top:2rem;border-bottom:1px solid #ddd}
details{border:1px solid #e1e4e8;border-radius:6px;margin:.5rem 0;padding:.4rem .8rem}
summary{cursor:pointer}code,pre{font:13px ui-monospace,monospace}pre{background:#f6f8fa;padding:.6rem;overflow:auto}
.m{display:inline-block;min-width:4.5rem;font-weight:700;text-transform:uppercase}
.get{color:#0a6}.post{color:#06c}.put{color:#a60}.delete{color:#c22}
</style></head>
<body><h1>Spatial-RAG API reference</h1>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3). Errors are RFC 9457 <code>application/problem+json</code>.</p>
<main id="ops">Loading…</main>
<script>
fetch('/openapi.json').then(r=>r.json()).then(doc=>{
  const esc=s=>String(s??'').replace(/[&<>]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;'}[c]));
  const byTag={};
  for(const [path,ops] of Object.entries(doc.paths||{}))for(const [method,op] of Object.entries(ops)){
    const tag=(op.tags||['other'])[0];(byTag[tag]=byTag[tag]||[]).push({path,method,op});}
  let html='';
  for(const [tag,list] of Object.entries(byTag)){
    html+='<h2>'+esc(tag)+'</h2>';
    for(const {path,method,op} of list){
      const body=op.requestBody?.content?.['application/json']?.schema;
      html+='<details><summary><span class="m '+method+'">'+method+'</span><code>'+esc(path)+'</code> — '+esc(op.summary)+'</summary>'
        +(op.description?'<p>'+esc(op.description)+'</p>':'')
        +(op.parameters?.length?'<p>Parameters: '+op.parameters.map(p=>'<code>'+esc(p.name)+'</code> ('+esc(p.in)+')').join(', ')+'</p>':'')
        +(body?'<p>Request body:</p><pre>'+esc(JSON.stringify(body,null,2))+'</pre>':'')
        +'<p>Responses: '+Object.entries(op.responses||{}).map(([s,r])=>'<code>'+s+'</code> '+esc(r.description)).join('; ')+'</p></details>';
    }
  }
  html+='<h2>Schemas</h2><pre>'+esc(JSON.stringify(doc.components?.schemas||{},null,2))+'</pre>';
  document.getElementById('ops').innerHTML=html;
}).catch(e=>{document.getElementById('ops').textContent='Could not load /openapi.json: '+e});
</script></body></html>`;
