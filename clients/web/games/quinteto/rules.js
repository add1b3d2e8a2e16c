// rules.js: the rules page of Quinteto in English, Spanish and Brazilian Portuguese, written for people from
// protocol/games/quinteto/README.md (binding) and the Spanish and Portuguese seed texts. The markup is the
// light one ../../rules.js draws. Rooms are numbered as on the board, hunters named by colour. The arranger
// is "el Sexto" in Spanish and "o Sexto" in Portuguese (the seed texts' "sexto jugador" / "6º jogador"):
// "ordenador" would also read "computer". `example` is the worked turn's position: the moves that lead to it
// from the start (a throw names its dice), drawn where the text says {example}.

const en = `# How to play Quinteto

Five hunters and a sixth player, the **arranger**, who decides who hunts whom and then fights the last hunter
standing in a duel. Each hunter has two stones on the board and a **marker** on the killing circle; the
arranger moves no stone until the duel.

## The board
- Twenty-five **rooms** form a closed ring around a pentagon, numbered 0 to 24 clockwise. Each side has five
  rooms; its middle room is that side's **home** (rooms 2, 7, 12, 17 and 22). Each hunter starts with both stones
  on its home.
- Each side has a **limbo** cell between the ring and the centre. A stone in limbo can never be captured.
- In the centre, the **killing circle** has five slots, 1 to 5 clockwise.

## Phase 1: the hunt
- **The circle.** The arranger puts the hunters' markers on slots 1, 2, 3... in the order it chooses. Each hunter
  hunts the hunter whose marker is next clockwise: its **victim**.
- **Who starts.** Every hunter rolls one die, all at once; the highest starts. If the highest is tied, only the
  tied roll again. Then play goes clockwise around the sides, skipping hunters who are out.
- **A turn.** Roll both dice, then play a **plan**:
  - the **sum**: one stone moves both dice together, either way round the ring; or
  - **two steps**: two different stones, one die each, each either way;
  - a stone on the ring may go into limbo with a die showing **6** (alone, dropping the other die, or as one of
    the two steps);
  - a stone in limbo comes out onto its own home with any die;
  - you must use both dice when you can; only if no plan can use both may you play a single die.
- Stones jump over everything; only the room where a stone lands matters. Steps happen in the order you choose.

## A turn, worked through
{example}
The arranger has set the circle Red → Blue → Green → Gold → Purple, so Red hunts Blue, and Red won the roll-off
with a 6. Red rolls **2 and 3**. Blue's two stones stand together on their home, room 7, five rooms clockwise
from Red's home, room 2: Red moves one stone by the **sum**, 5, clockwise, and lands on room 7. Every stone there
is Blue's, so both are **captured**; Blue has no stone left and is **eliminated**. Its marker leaves the circle,
which closes: Red now hunts Green. Four hunters are left, so the arranger sets the circle again before Green
plays. (Red could also have moved two stones, one die each, or gone either way round the ring; only the sum
reached Blue.)

## Captures and alliances
- Landing in a room where **every** stone belongs to your victim captures them all (one or two).
- A room with anyone else's stone in it (yours included) is safe for your victim: that is an **alliance**.
- A hunter with no stone left on the ring or in limbo is **eliminated**: its marker leaves the circle and the
  circle closes, so its hunter now hunts its victim. After a turn with an elimination, while three or more
  hunters live, the arranger sets the circle again.
- Phase 1 ends when only one hunter has stones left: the **survivor**.

## Phase 2: the duel
- The arranger places two stones on a home whose room is empty. The survivor and the arranger now hunt each
  other; the arranger rolls first, then turns alternate.
- Everything above still holds, and: a die showing **5** may **kill** any one of the opponent's stones on the
  ring, wherever it is; and a roll of **5 and 5** — a **Quinteto** — wins at once.
- Whoever removes all the opponent's stones wins.

## Limits and leaving
- The match's options may set a turn limit (2000 by default); reaching it ends the match as a draw.
- A hunter who resigns is eliminated at once. The arranger resigning during the hunt ends the match with no
  winner; in the duel, the other player wins.
`;

const es = `# Cómo se juega al Quinteto

Cinco cazadores y un sexto jugador, el **Sexto**, que decide quién caza a quién y luego se enfrenta en duelo
al último cazador que quede. Cada cazador tiene dos piedras en el tablero y una **marca** en el círculo de la
muerte; el Sexto no mueve piedras hasta el duelo.

## El tablero
- Veinticinco **salas** forman un anillo cerrado alrededor de un pentágono, numeradas del 0 al 24 en sentido
  horario. Cada lado tiene cinco salas; la del medio es la **casa** de ese lado (salas 2, 7, 12, 17 y 22). Cada
  cazador empieza con sus dos piedras en su casa.
- Cada lado tiene un **limbo** entre el anillo y el centro. Una piedra en el limbo nunca puede ser capturada.
- En el centro, el **círculo de la muerte** tiene cinco casillas, de 1 a 5 en sentido horario.

## Fase 1: la caza
- **El círculo.** El Sexto pone las marcas de los cazadores en las casillas 1, 2, 3... en el orden que elija.
  Cada cazador caza al cazador cuya marca sigue en sentido horario: su **víctima**.
- **Quién empieza.** Todos los cazadores tiran un dado a la vez; empieza el más alto. Si hay empate en lo más alto,
  solo los empatados vuelven a tirar. Después se juega en sentido horario, saltando a los eliminados.
- **Un turno.** Tira los dos dados y juega un **plan**:
  - la **suma**: una piedra avanza los dos dados juntos, en cualquier sentido del anillo; o
  - **dos pasos**: dos piedras distintas, un dado cada una, cada una en cualquier sentido;
  - una piedra del anillo puede entrar al limbo con un dado que muestre **6** (sola, perdiendo el otro dado, o
    como uno de los dos pasos);
  - una piedra del limbo sale a su propia casa con cualquier dado;
  - hay que usar los dos dados cuando se puede; solo si ningún plan los usa a ambos se juega un dado solo.
- Las piedras saltan por encima de todo; solo cuenta la sala donde caen. Los pasos ocurren en el orden elegido.

## Un turno, paso a paso
{example}
El Sexto ha dispuesto el círculo Rojo → Azul → Verde → Oro → Violeta, así que Rojo caza a Azul, y Rojo ganó el
sorteo con un 6. Rojo saca **2 y 3**. Las dos piedras de Azul están juntas en su casa, la sala 7, cinco salas en
sentido horario desde la casa de Rojo, la sala 2: Rojo mueve una piedra la **suma**, 5, en sentido horario, y cae
en la sala 7. Todas las piedras de allí son de Azul, así que las dos quedan **capturadas**; a Azul no le queda
ninguna y queda **eliminado**. Su marca sale del círculo, que se cierra: ahora Rojo caza a Verde. Quedan cuatro
cazadores, así que el Sexto vuelve a disponer el círculo antes de que juegue Verde. (Rojo también podía mover dos
piedras, un dado cada una, o ir en cualquier sentido del anillo; solo la suma llegaba a Azul.)

## Capturas y alianzas
- Caer en una sala donde **todas** las piedras son de tu víctima las captura todas (una o dos).
- Una sala con una piedra de cualquier otro (también tuya) protege a tu víctima: es una **alianza**.
- Un cazador sin piedras en el anillo ni en el limbo queda **eliminado**: su marca sale del círculo y el círculo se
  cierra, así que su cazador pasa a cazar a su víctima. Tras un turno con una eliminación, mientras vivan tres o
  más cazadores, el Sexto vuelve a disponer el círculo.
- La fase 1 termina cuando solo un cazador conserva piedras: el **superviviente**.

## Fase 2: el duelo
- El Sexto pone dos piedras en una casa cuya sala esté vacía. El superviviente y el Sexto se cazan
  mutuamente; tira primero el Sexto y luego se alternan los turnos.
- Todo lo anterior sigue valiendo, y además: un dado que muestre **5** puede **matar** cualquier piedra del rival
  que esté en el anillo, esté donde esté; y una tirada de **5 y 5** — un **Quinteto** — gana en el acto.
- Gana quien elimine todas las piedras del rival.

## Límites y abandonos
- Las opciones de la partida pueden fijar un límite de turnos (2000 por defecto); al alcanzarlo la partida
  termina en tablas.
- Un cazador que abandona queda eliminado en el acto. Si el Sexto abandona durante la caza, la partida termina
  sin ganador; en el duelo, gana el otro jugador.
`;

const pt = `# Como se joga o Quinteto

Cinco caçadores e um sexto jogador, o **Sexto**, que decide quem caça quem e depois enfrenta em duelo o
último caçador que restar. Cada caçador tem duas pedras no tabuleiro e uma **marca** no círculo da morte; o
Sexto não move pedras até o duelo.

## O tabuleiro
- Vinte e cinco **salas** formam um anel fechado em volta de um pentágono, numeradas de 0 a 24 no sentido
  horário. Cada lado tem cinco salas; a do meio é a **casa** desse lado (salas 2, 7, 12, 17 e 22). Cada caçador
  começa com as duas pedras na sua casa.
- Cada lado tem um **limbo** entre o anel e o centro. Uma pedra no limbo nunca pode ser capturada.
- No centro, o **círculo da morte** tem cinco posições, de 1 a 5 no sentido horário.

## Fase 1: a caçada
- **O círculo.** O Sexto põe as marcas dos caçadores nas posições 1, 2, 3... na ordem que escolher. Cada caçador
  caça o caçador cuja marca vem em seguida no sentido horário: a sua **vítima**.
- **Quem começa.** Todos os caçadores jogam um dado ao mesmo tempo; começa o mais alto. Se houver empate no mais
  alto, só os empatados jogam de novo. Depois o jogo segue no sentido horário, pulando os eliminados.
- **Um turno.** Jogue os dois dados e faça um **plano**:
  - a **soma**: uma pedra anda os dois dados juntos, em qualquer sentido do anel; ou
  - **dois passos**: duas pedras diferentes, um dado cada, cada uma em qualquer sentido;
  - uma pedra do anel pode entrar no limbo com um dado que mostre **6** (sozinha, perdendo o outro dado, ou como
    um dos dois passos);
  - uma pedra do limbo sai para a sua própria casa com qualquer dado;
  - é preciso usar os dois dados quando der; só se nenhum plano usar os dois se joga um dado sozinho.
- As pedras pulam por cima de tudo; só conta a sala onde caem. Os passos acontecem na ordem escolhida.

## Um turno, passo a passo
{example}
O Sexto dispôs o círculo Vermelho → Azul → Verde → Ouro → Roxo, então o Vermelho caça o Azul, e o Vermelho ganhou
o sorteio com um 6. O Vermelho tira **2 e 3**. As duas pedras do Azul estão juntas na casa dele, a sala 7, cinco
salas no sentido horário a partir da casa do Vermelho, a sala 2: o Vermelho move uma pedra a **soma**, 5, no
sentido horário, e cai na sala 7. Todas as pedras ali são do Azul, então as duas são **capturadas**; o Azul não
tem mais nenhuma e é **eliminado**. A marca dele sai do círculo, que se fecha: agora o Vermelho caça o Verde.
Restam quatro caçadores, então o Sexto dispõe o círculo de novo antes de o Verde jogar. (O Vermelho também podia
mover duas pedras, um dado cada, ou ir em qualquer sentido do anel; só a soma chegava ao Azul.)

## Capturas e alianças
- Cair numa sala onde **todas** as pedras são da sua vítima captura todas (uma ou duas).
- Uma sala com uma pedra de qualquer outro (também sua) protege a sua vítima: é uma **aliança**.
- Um caçador sem pedras no anel nem no limbo é **eliminado**: a sua marca sai do círculo e o círculo se fecha,
  então o seu caçador passa a caçar a vítima dele. Depois de um turno com uma eliminação, enquanto viverem três ou
  mais caçadores, o Sexto dispõe o círculo de novo.
- A fase 1 termina quando só um caçador ainda tem pedras: o **sobrevivente**.

## Fase 2: o duelo
- O Sexto põe duas pedras numa casa cuja sala esteja vazia. O sobrevivente e o Sexto caçam um ao outro;
  o Sexto joga primeiro e depois os turnos se alternam.
- Tudo o que foi dito continua valendo, e mais: um dado que mostre **5** pode **matar** qualquer pedra do rival
  que esteja no anel, onde quer que esteja; e uma jogada de **5 e 5** — um **Quinteto** — vence na hora.
- Vence quem tirar todas as pedras do rival.

## Limites e desistências
- As opções da partida podem fixar um limite de turnos (2000 por padrão); ao atingi-lo, a partida termina
  empatada.
- Um caçador que desiste é eliminado na hora. Se o Sexto desistir durante a caçada, a partida termina sem
  vencedor; no duelo, vence o outro jogador.
`;

// The worked turn: the arranger's circle, the roll-off (Red highest), Red's roll of 2 and 3 and the sum to room 7.
const R = (seat, dice) => ({ seat, action: { roll: true }, dice });
const example = {
  seat: 0,
  moves: [{ seat: 5, action: { arrange: [0, 1, 2, 3, 4] } }, R(0, [6]), R(1, [3]), R(2, [4]), R(3, [2]), R(4, [5]),
    R(0, [2, 3]), { seat: 0, action: { plan: [{ die: 'sum', stone: 0, steps: 5 }] } }],
};

export default { en, es, pt, example };
