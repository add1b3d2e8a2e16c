// tutorial.js: Quinteto's guided first match (the module contract's optional `tutorial`, played by
// ../../learn.js and ../../lesson.js): the player is Red, a hunter; the other four hunters and the arranger
// are bots whose every move is written here, and every throw of the dice too (lesson.js finds the dice
// stream that gives it), so the match is the same for everyone and shows, in order: the arranger's circle,
// the roll-off, a hunt turn (a roll and a plan) with a capture that eliminates, the circle set again, limbo
// (a stone hidden with a 6, then brought out onto its home, capturing there), the survivor, the arranger's
// place and the duel (a kill with a 5 and a capture) to Red's win. tests/unit/learn_script.test.mjs plays
// it on the rules module and checks each of these; tests/browser/learn.test.mjs plays it by taps.
//
// Steps: `say` is the coach's words (a key of the catalogues below); `act` the bots' moves played on entering
// the step; `you` the one move taught there (the only one the board offers). The words name the arranger
// as the rules pages do: "arranger", Spanish "el Sexto" and Brazilian Portuguese "o Sexto" (the original
// texts' "sexto jugador" / "6º jogador"; "ordenador" would also read "computer").

const R = (seat, dice) => ({ seat, action: { roll: true }, dice });
const P = (seat, ...plan) => ({ seat, action: { plan } });

const steps = [
  { say: 'intro' },
  { say: 'circle', act: [{ seat: 5, action: { arrange: [0, 1, 2, 3, 4] } }], you: { action: { roll: true }, dice: [6] } },
  { say: 'start', act: [R(1, [3]), R(2, [4]), R(3, [2]), R(4, [5])], you: { action: { roll: true }, dice: [2, 3] } },
  { say: 'capture', you: { action: { plan: [{ die: 'sum', stone: 0, steps: 5 }] } } },
  { say: 'captured' },
  { say: 'rearrange', act: [{ seat: 5, action: { arrange: [0, 2, 3, 4] } }] },
  { say: 'green', act: [R(2, [1, 4]), P(2, { die: 'sum', stone: 6, steps: 5 })] },
  { say: 'rearrange2', act: [{ seat: 5, action: { arrange: [0, 2, 4] } }] },
  { say: 'purple', act: [R(4, [1, 2]), P(4, { die: 0, stone: 12, steps: 1 }, { die: 1, stone: 13, steps: 2 })],
    you: { action: { roll: true }, dice: [6, 5] } },
  { say: 'limbo', you: { action: { plan: [{ die: 0, stone: 1, enter: true }, { die: 1, stone: 0, steps: 5 }] } } },
  { say: 'safe' },
  { say: 'green2', act: [R(2, [3, 3]), P(2, { die: 'sum', stone: 6, steps: 6 })] },
  { say: 'purple2', act: [R(4, [1, 2]), P(4, { die: 'sum', stone: 13, steps: -3 })], you: { action: { roll: true }, dice: [5, 6] } },
  { say: 'capture3', you: { action: { plan: [{ die: 'sum', stone: 0, steps: 11 }] } } },
  { say: 'two' },
  { say: 'purple3', act: [R(4, [2, 4]), P(4, { die: 'sum', stone: 13, steps: 6 })], you: { action: { roll: true }, dice: [2, 4] } },
  { say: 'exit', you: { action: { plan: [{ die: 0, stone: 1, exit: true }, { die: 1, stone: 0, steps: -4 }] } } },
  { say: 'survivor' },
  { say: 'place', act: [{ seat: 5, action: { place: 2 } }] },
  { say: 'arranger', act: [R(5, [3, 1]), P(5, { die: 0, stone: 15, steps: 3 }, { die: 1, stone: 16, steps: -1 })],
    you: { action: { roll: true }, dice: [5, 4] } },
  { say: 'kill', you: { action: { plan: [{ die: 0, kill: 16 }, { die: 1, stone: 0, steps: -4 }] } } },
  { say: 'won' },
];

const en = {
  'learn.title': 'Your first match of Quinteto',
  'coach.intro': 'Welcome! You play Red, one of five hunters. A sixth player, the arranger, decides who hunts whom and then fights the last hunter standing in a duel. Each hunter starts with two stones on its home, the ringed room in the middle of its side: yours is room 2. The bots here follow a script, so this match always goes the same way. Press Next.',
  'coach.circle': 'The arranger has put the five markers on the killing circle in the centre: Red, Blue, Green, Gold, Purple. Each hunter hunts the next one clockwise: you hunt Blue (home: room 7), and Purple hunts you. To see who starts, every hunter rolls one die. Roll yours.',
  'coach.start': 'You rolled 6, the highest: you start, and play then goes clockwise. A turn is a roll of both dice, then a plan: one stone moves by their sum, or two stones move one die each, either way round the ring. Roll the dice.',
  'coach.capture': '2 and 3 make 5: exactly the way from your home, room 2, to Blue’s home, room 7, where both Blue stones stand. Landing on a room where every stone is your victim’s captures them all. Move one of your stones by the sum, clockwise, to room 7, and play the plan.',
  'coach.captured': 'Both Blue stones are captured: Blue has none left and is out. Its marker leaves the circle and the circle closes, so you now hunt Green, the hunter Blue was hunting. After an elimination, while three or more hunters are left, the arranger sets the circle again.',
  'coach.rearrange': 'The arranger’s new circle: Red, Green, Gold, Purple. You hunt Green, Green hunts Gold, Gold hunts Purple and Purple hunts you. Play goes on clockwise after you: Blue is out, so Green plays next.',
  'coach.green': 'Green rolled 1 and 4 and moved by the sum, 5 rooms, from its home (room 12) to Gold’s home (room 17): both Gold stones are captured and Gold is out. Three hunters are left, so the arranger sets the circle once more.',
  'coach.rearrange2': 'Now Red hunts Green, Green hunts Purple and Purple hunts Red. Purple plays next.',
  'coach.purple': 'Purple rolled 1 and 2 and moved its stones one die each, to rooms 23 and 24: three and four rooms from your stone on room 2. Purple hunts you, so a small roll next time would capture that stone. Your turn: roll.',
  'coach.limbo': '6 and 5. A die showing 6 can put a stone into limbo, the cell between your side and the centre, where nobody can capture it. Put your stone on room 2 into limbo with the 6, then move your other stone 5 rooms clockwise, from room 7 to room 12, where Green’s lone stone stands: a capture. Then play the plan.',
  'coach.safe': 'Your stone waits in limbo, safe. Green lost a stone and keeps one, on room 17. A stone comes out of limbo onto its own home with any die, whenever you choose.',
  'coach.green2': 'Green rolled 3 and 3 and moved 6 rooms, from room 17 to room 23: Purple’s stone there is captured. Purple keeps one stone, on room 24.',
  'coach.purple2': 'Purple rolled 1 and 2 and moved its last stone 3 rooms back, to room 21. Your turn: roll.',
  'coach.capture3': '5 and 6 make 11: the way from your stone on room 12 to Green’s last stone, on room 23. Move it by the sum, clockwise, to capture that stone, and play the plan.',
  'coach.two': 'Green is out. Two hunters are left, you and Purple, and each now hunts the other: with two, the circle is not set again. The last hunter with stones left is the survivor.',
  'coach.purple3': 'Purple rolled 2 and 4 and moved 6 rooms, onto your home, room 2, empty while your stone hides in limbo. Your turn: roll.',
  'coach.exit': '2 and 4. A stone leaving limbo lands on its home, and that landing captures like any other. Bring your stone out of limbo with the 2: it lands on room 2 and captures Purple’s last stone. Then move your other stone 4 rooms back, from room 23 to room 19, and play the plan.',
  'coach.survivor': 'Purple is out: you are the survivor, and the hunt is over. Phase 2, the duel: you against the arranger, who now places two stones on a home whose room is empty.',
  'coach.place': 'The arranger took Green’s home, room 12. You and the arranger hunt each other, and the arranger rolls first. In the duel a die showing 5 may kill any one of the other side’s stones on the ring, wherever it is, and a roll of 5 and 5, a Quinteto, wins at once.',
  'coach.arranger': 'The arranger rolled 3 and 1: one stone went to room 15, the other to room 11. Your turn: roll.',
  'coach.kill': '5 and 4. Use the 5 to kill the arranger’s stone on room 11, then move your stone on room 19 four rooms back, onto the arranger’s other stone on room 15: a capture. Then play the plan.',
  'coach.won': 'The arranger has no stone left: you win the duel and the match! That is the whole of Quinteto: the circle, the hunt, captures, limbo and the duel. Now play a real match, against bots or people.',
};

const es = {
  'learn.title': 'Tu primera partida de Quinteto',
  'coach.intro': '¡Hola! Juegas con Rojo, uno de los cinco cazadores. Un sexto jugador, el Sexto, decide quién caza a quién y luego se enfrenta en duelo al último cazador que quede. Cada cazador empieza con dos piedras en su casa, la sala con un anillo en el medio de su lado: la tuya es la sala 2. Aquí los bots siguen un guion, así que esta partida siempre sale igual. Pulsa Siguiente.',
  'coach.circle': 'El Sexto ha puesto las cinco marcas en el círculo de la muerte, en el centro: Rojo, Azul, Verde, Oro, Violeta. Cada cazador caza al siguiente en sentido horario: tú cazas a Azul (su casa: la sala 7) y Violeta te caza a ti. Para ver quién empieza, cada cazador tira un dado. Tira el tuyo.',
  'coach.start': 'Sacaste un 6, el más alto: empiezas tú, y después se juega en sentido horario. Un turno es una tirada de los dos dados y luego un plan: una piedra avanza la suma, o dos piedras avanzan un dado cada una, en cualquier sentido del anillo. Tira los dados.',
  'coach.capture': '2 y 3 suman 5: justo el camino de tu casa, la sala 2, a la casa de Azul, la sala 7, donde están sus dos piedras. Caer en una sala donde todas las piedras son de tu víctima las captura todas. Mueve una de tus piedras la suma, en sentido horario, hasta la sala 7, y juega el plan.',
  'coach.captured': 'Las dos piedras de Azul, capturadas: a Azul no le queda ninguna y queda eliminado. Su marca sale del círculo y el círculo se cierra, así que ahora cazas a Verde, a quien cazaba Azul. Tras una eliminación, mientras queden tres cazadores o más, el Sexto vuelve a disponer el círculo.',
  'coach.rearrange': 'El nuevo círculo del Sexto: Rojo, Verde, Oro, Violeta. Tú cazas a Verde, Verde a Oro, Oro a Violeta y Violeta a ti. Se sigue jugando en sentido horario después de ti: Azul está fuera, así que juega Verde.',
  'coach.green': 'Verde sacó 1 y 4 y movió la suma, 5 salas, de su casa (la sala 12) a la casa de Oro (la sala 17): las dos piedras de Oro, capturadas, y Oro queda eliminado. Quedan tres cazadores, así que el Sexto dispone el círculo otra vez.',
  'coach.rearrange2': 'Ahora Rojo caza a Verde, Verde a Violeta y Violeta a Rojo. Juega Violeta.',
  'coach.purple': 'Violeta sacó 1 y 2 y movió sus piedras un dado cada una, a las salas 23 y 24: a tres y cuatro salas de tu piedra de la sala 2. Violeta te caza, así que una tirada pequeña la próxima vez capturaría esa piedra. Te toca: tira.',
  'coach.limbo': '6 y 5. Un dado que muestra 6 puede meter una piedra en el limbo, la celda entre tu lado y el centro, donde nadie puede capturarla. Mete en el limbo tu piedra de la sala 2 con el 6 y luego mueve tu otra piedra 5 salas en sentido horario, de la sala 7 a la 12, donde está la piedra solitaria de Verde: una captura. Después juega el plan.',
  'coach.safe': 'Tu piedra espera en el limbo, a salvo. Verde perdió una piedra y le queda una, en la sala 17. Una piedra sale del limbo a su propia casa con cualquier dado, cuando tú quieras.',
  'coach.green2': 'Verde sacó 3 y 3 y movió 6 salas, de la 17 a la 23: captura la piedra de Violeta que estaba allí. A Violeta le queda una piedra, en la sala 24.',
  'coach.purple2': 'Violeta sacó 1 y 2 y movió su última piedra 3 salas hacia atrás, a la sala 21. Te toca: tira.',
  'coach.capture3': '5 y 6 suman 11: el camino de tu piedra de la sala 12 a la última piedra de Verde, en la sala 23. Muévela la suma, en sentido horario, para capturar esa piedra, y juega el plan.',
  'coach.two': 'Verde está fuera. Quedan dos cazadores, tú y Violeta, y ahora cada uno caza al otro: con dos, el círculo no se vuelve a disponer. El último cazador al que le queden piedras es el superviviente.',
  'coach.purple3': 'Violeta sacó 2 y 4 y movió 6 salas, hasta tu casa, la sala 2, vacía mientras tu piedra se esconde en el limbo. Te toca: tira.',
  'coach.exit': '2 y 4. Una piedra que sale del limbo cae en su casa, y esa caída captura como cualquier otra. Saca tu piedra del limbo con el 2: cae en la sala 2 y captura la última piedra de Violeta. Luego mueve tu otra piedra 4 salas hacia atrás, de la 23 a la 19, y juega el plan.',
  'coach.survivor': 'Violeta está fuera: eres el superviviente y la caza ha terminado. Fase 2, el duelo: tú contra el Sexto, que ahora pone dos piedras en una casa cuya sala esté vacía.',
  'coach.place': 'El Sexto eligió la casa de Verde, la sala 12. Ahora tú cazas al Sexto y el Sexto te caza a ti, y el Sexto tira primero. En el duelo, un dado que muestra 5 puede matar cualquier piedra del rival que esté en el anillo, esté donde esté, y una tirada de 5 y 5, un Quinteto, gana en el acto.',
  'coach.arranger': 'El Sexto sacó 3 y 1: una piedra fue a la sala 15 y la otra a la 11. Te toca: tira.',
  'coach.kill': '5 y 4. Usa el 5 para matar la piedra del Sexto de la sala 11 y luego mueve tu piedra de la sala 19 cuatro salas hacia atrás, sobre la otra piedra del Sexto, en la sala 15: una captura. Después juega el plan.',
  'coach.won': 'Al Sexto no le queda ninguna piedra: ¡ganas el duelo y la partida! Eso es todo el Quinteto: el círculo, la caza, las capturas, el limbo y el duelo. Ahora juega una partida de verdad, contra bots o contra personas.',
};

const pt = {
  'learn.title': 'Sua primeira partida de Quinteto',
  'coach.intro': 'Olá! Você joga com o Vermelho, um dos cinco caçadores. Um sexto jogador, o Sexto, decide quem caça quem e depois enfrenta em duelo o último caçador que restar. Cada caçador começa com duas pedras na sua casa, a sala com um anel no meio do seu lado: a sua é a sala 2. Aqui os bots seguem um roteiro, então esta partida é sempre igual. Aperte Próximo.',
  'coach.circle': 'O Sexto pôs as cinco marcas no círculo da morte, no centro: Vermelho, Azul, Verde, Ouro, Roxo. Cada caçador caça o seguinte no sentido horário: você caça o Azul (a casa dele: sala 7), e o Roxo caça você. Para ver quem começa, cada caçador joga um dado. Jogue o seu.',
  'coach.start': 'Você tirou 6, o mais alto: você começa, e depois o jogo segue no sentido horário. Um turno é uma jogada dos dois dados e depois um plano: uma pedra anda a soma, ou duas pedras andam um dado cada, em qualquer sentido do anel. Jogue os dados.',
  'coach.capture': '2 e 3 somam 5: exatamente o caminho da sua casa, a sala 2, até a casa do Azul, a sala 7, onde estão as duas pedras dele. Cair numa sala onde todas as pedras são da sua vítima captura todas. Mova uma das suas pedras a soma, no sentido horário, até a sala 7, e jogue o plano.',
  'coach.captured': 'As duas pedras do Azul foram capturadas: o Azul não tem mais nenhuma e está eliminado. A marca dele sai do círculo e o círculo se fecha, então agora você caça o Verde, que o Azul caçava. Depois de uma eliminação, enquanto restarem três caçadores ou mais, o Sexto dispõe o círculo de novo.',
  'coach.rearrange': 'O novo círculo do Sexto: Vermelho, Verde, Ouro, Roxo. Você caça o Verde, o Verde caça o Ouro, o Ouro caça o Roxo e o Roxo caça você. O jogo segue no sentido horário depois de você: o Azul está fora, então o Verde joga agora.',
  'coach.green': 'O Verde tirou 1 e 4 e andou a soma, 5 salas, da casa dele (sala 12) até a casa do Ouro (sala 17): as duas pedras do Ouro foram capturadas e o Ouro está eliminado. Restam três caçadores, então o Sexto dispõe o círculo mais uma vez.',
  'coach.rearrange2': 'Agora o Vermelho caça o Verde, o Verde caça o Roxo e o Roxo caça o Vermelho. O Roxo joga agora.',
  'coach.purple': 'O Roxo tirou 1 e 2 e andou com as duas pedras, um dado cada, até as salas 23 e 24: a três e a quatro salas da sua pedra na sala 2. O Roxo caça você, então uma jogada pequena na próxima vez capturaria essa pedra. Sua vez: jogue os dados.',
  'coach.limbo': '6 e 5. Um dado que mostra 6 pode pôr uma pedra no limbo, entre o seu lado e o centro, onde ninguém pode capturá-la. Ponha no limbo a sua pedra da sala 2 com o 6 e depois mova a sua outra pedra 5 salas no sentido horário, da sala 7 para a 12, onde está a pedra solitária do Verde: uma captura. Depois jogue o plano.',
  'coach.safe': 'A sua pedra espera no limbo, a salvo. O Verde perdeu uma pedra e ficou com uma, na sala 17. Uma pedra sai do limbo para a sua própria casa com qualquer dado, quando você quiser.',
  'coach.green2': 'O Verde tirou 3 e 3 e andou 6 salas, da 17 para a 23: captura a pedra do Roxo que estava lá. O Roxo fica com uma pedra, na sala 24.',
  'coach.purple2': 'O Roxo tirou 1 e 2 e voltou 3 salas com a sua última pedra, até a sala 21. Sua vez: jogue os dados.',
  'coach.capture3': '5 e 6 somam 11: o caminho da sua pedra na sala 12 até a última pedra do Verde, na sala 23. Mova-a a soma, no sentido horário, para capturar essa pedra, e jogue o plano.',
  'coach.two': 'O Verde está fora. Restam dois caçadores, você e o Roxo, e agora cada um caça o outro: com dois, o círculo não é disposto de novo. O último caçador que ainda tiver pedras é o sobrevivente.',
  'coach.purple3': 'O Roxo tirou 2 e 4 e andou 6 salas, até a sua casa, a sala 2, vazia enquanto a sua pedra se esconde no limbo. Sua vez: jogue os dados.',
  'coach.exit': '2 e 4. Uma pedra que sai do limbo cai na sua casa, e essa queda captura como qualquer outra. Tire a sua pedra do limbo com o 2: ela cai na sala 2 e captura a última pedra do Roxo. Depois volte 4 salas com a sua outra pedra, da 23 para a 19, e jogue o plano.',
  'coach.survivor': 'O Roxo está fora: você é o sobrevivente, e a caçada acabou. Fase 2, o duelo: você contra o Sexto, que agora põe duas pedras numa casa cuja sala esteja vazia.',
  'coach.place': 'O Sexto escolheu a casa do Verde, a sala 12. Você e o Sexto caçam um ao outro, e o Sexto joga primeiro. No duelo, um dado que mostra 5 pode matar qualquer pedra do rival que esteja no anel, onde quer que esteja, e uma jogada de 5 e 5, um Quinteto, vence na hora.',
  'coach.arranger': 'O Sexto tirou 3 e 1: uma pedra foi para a sala 15 e a outra para a 11. Sua vez: jogue os dados.',
  'coach.kill': '5 e 4. Use o 5 para matar a pedra do Sexto na sala 11 e depois volte 4 salas com a sua pedra da sala 19, caindo sobre a outra pedra do Sexto, na sala 15: uma captura. Depois jogue o plano.',
  'coach.won': 'O Sexto não tem mais nenhuma pedra: você vence o duelo e a partida! Isso é todo o Quinteto: o círculo, a caçada, as capturas, o limbo e o duelo. Agora jogue uma partida de verdade, contra bots ou contra pessoas.',
};

export default { game: 'quinteto', seat: 0, steps, strings: { en, es, pt } };
